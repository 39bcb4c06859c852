import { z } from "zod";
import { TASK_STATUSES } from "@/lib/automation/state-machines";
import { document, intIn, isoDateTime, jsonObject, patchShape, prose, recordShape, resourceId, text, typeTag, uniqueCheck } from "./shared";

// Task ($type Task): a unit of work with a status (see lib/automation/state-machines.ts), a priority from 0
// (critical) to 4 (backlog) and dependencies on other tasks (which must exist and form no cycle).

export const taskShape = {
  $id: resourceId(),
  $type: typeTag("Task"),
  title: text(500),
  description: prose(10_000).optional(),
  status: z
    .enum(TASK_STATUSES)
    .default("pending")
    .meta({ description: "New tasks start 'pending'; later changes follow the task state machine" }),
  priority: intIn(0, 4, "must be a whole number from 0 (critical) to 4 (backlog)"),
  assignee: text(200).optional(),
  dueDate: isoDateTime().optional(),
  dependencies: z.array(text(64)).max(100).optional().meta({ description: "Ids of tasks (task_…) this one waits for" }),
  tags: z.array(text(100)).max(50).optional(),
  metadata: jsonObject().optional(),
};

const TaskObject = z.strictObject(taskShape).superRefine((t, ctx) => {
  if (!t.dependencies) return;
  uniqueCheck(ctx, t.dependencies, (i) => ["dependencies", i], "the dependency");
  const self = t.$id === undefined ? -1 : t.dependencies.indexOf(t.$id);
  if (self >= 0) ctx.addIssue({ code: "custom", path: ["dependencies", self], message: "a task cannot depend on itself", input: t.$id });
});
export const Task = document(TaskObject).meta({
  id: "Task",
  description: "A task. The runtime-validation schema of the kind, and the body of POST /v1/tasks.",
});
export const TaskUpdate = document(z.strictObject(patchShape(taskShape, { notNull: ["status"] }))).meta({
  id: "TaskUpdate",
  description: "Fields to change; a new status must be a legal move",
});
export const TaskRecord = z.object(recordShape(taskShape, "Task", true, "task_01JD2Y7X3Q9W6E8R4T5Y7U9I0P")).meta({ id: "TaskRecord" });

export type Task = z.output<typeof Task>;
export type TaskInput = z.input<typeof TaskObject>;

/**
 * A dependency cycle among `tasks` (by $id), as the list of ids around it, or null. For validating a set of task
 * documents together; the API checks the same against the stored tasks.
 */
export function findDependencyCycle(tasks: readonly { $id?: string; dependencies?: readonly string[] }[]): string[] | null {
  const deps = new Map<string, readonly string[]>();
  for (const t of tasks) if (t.$id) deps.set(t.$id, t.dependencies ?? []);
  const state = new Map<string, 1 | 2>(); // 1 on the current path, 2 done
  for (const start of deps.keys()) {
    if (state.has(start)) continue;
    const path: string[] = [];
    const stack: { id: string; next: number }[] = [{ id: start, next: 0 }];
    state.set(start, 1);
    path.push(start);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const children = deps.get(top.id) ?? [];
      if (top.next >= children.length) {
        state.set(top.id, 2);
        stack.pop();
        path.pop();
        continue;
      }
      const child = children[top.next++];
      const s = state.get(child);
      if (s === 1) return [...path.slice(path.indexOf(child)), child];
      if (s === undefined && deps.has(child)) {
        state.set(child, 1);
        path.push(child);
        stack.push({ id: child, next: 0 });
      }
    }
  }
  return null;
}
