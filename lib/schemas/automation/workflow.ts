import { z } from "zod";
import { BACKOFF, STEP_TYPES, stepId, WorkflowStep } from "./workflow-step";
import { WorkflowTrigger } from "./trigger";
import {
  document,
  httpUrl,
  jsonObject,
  patchShape,
  positiveInt,
  prose,
  recordShape,
  resourceId,
  text,
  typeTag,
  uniqueCheck,
} from "./shared";

// Workflow ($type Workflow): steps, where to start, variables, triggers and run policy. The cross-field rules a
// user expects are checked here with the exact path: unique step ids, startStep / fallbackStep / then / else /
// loop and parallel steps naming existing steps, onError 'fallback' with a fallbackStep.

export const QUEUE_BEHAVIORS = ["queue", "reject", "cancel_running"] as const;
export const MAX_STEPS = 1_000;

export const workflowShape = {
  $id: resourceId(),
  $type: typeTag("Workflow"),
  name: text(200),
  description: prose(10_000),
  version: z
    .string()
    .regex(/^\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z.-]{1,64})?(?:\+[0-9A-Za-z.-]{1,64})?$/, "must be a semantic version such as 1.0.0")
    .default("1.0.0"),
  inputSchema: jsonObject("JSON Schema of the workflow's input").optional(),
  outputSchema: jsonObject("JSON Schema of the workflow's output").optional(),
  steps: z.array(WorkflowStep).min(1, "must hold at least one step").max(MAX_STEPS, `holds at most ${MAX_STEPS} steps`),
  startStep: stepId().optional().meta({ description: "The first step; defaults to steps[0]" }),
  variables: jsonObject("Initial variables").optional(),
  triggers: z.array(WorkflowTrigger).max(50).optional(),
  concurrency: z
    .strictObject({
      maxConcurrent: positiveInt(10_000).default(1),
      queueBehavior: z.enum(QUEUE_BEHAVIORS).optional(),
    })
    .prefault({}),
  timeout: positiveInt().optional().meta({ description: "Milliseconds" }),
  retry: z
    .strictObject({
      maxAttempts: positiveInt(100).default(3),
      backoff: z.enum(BACKOFF).optional(),
    })
    .prefault({}),
  notifications: z
    .strictObject({
      onSuccess: z.array(httpUrl()).max(20).optional().meta({ description: "Webhook URLs told of a success" }),
      onFailure: z.array(httpUrl()).max(20).optional().meta({ description: "Webhook URLs told of a failure" }),
    })
    .optional(),
  active: z.boolean().default(true),
};

type Step = { id: string; type: (typeof STEP_TYPES)[number]; config: Record<string, unknown>; fallbackStep?: string; onError?: string };
type WorkflowFields = { steps: Step[]; startStep?: string };

function listOf(ids: Iterable<string>): string {
  const all = [...ids];
  return all.length > 10 ? `${all.slice(0, 10).join(", ")}, …` : all.join(", ");
}

function unknownStep(ctx: z.RefinementCtx, ids: Set<string>, ref: string, path: (string | number)[], what: string) {
  ctx.addIssue({
    code: "custom",
    path,
    message: `'${ref}' names no step of this workflow (${what} must be a step id; steps are: ${listOf(ids)})`,
    input: ref,
  });
}

// Runs on every workflow write and in the benchmark: plain loops, no closures per step.
function workflowRules(w: WorkflowFields, ctx: z.RefinementCtx) {
  const ids = new Set<string>();
  const steps = w.steps;
  for (let i = 0; i < steps.length; i++) {
    const id = steps[i].id;
    if (ids.has(id)) {
      const first = steps.findIndex((s) => s.id === id);
      ctx.addIssue({
        code: "custom",
        path: ["steps", i, "id"],
        message: `repeats the step id '${id}' of steps[${first}]; step ids must be unique`,
        input: id,
      });
    }
    ids.add(id);
  }
  if (w.startStep !== undefined && !ids.has(w.startStep)) unknownStep(ctx, ids, w.startStep, ["startStep"], "startStep");
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    if (s.fallbackStep !== undefined && !ids.has(s.fallbackStep))
      unknownStep(ctx, ids, s.fallbackStep, ["steps", i, "fallbackStep"], "fallbackStep");
    const c = s.config;
    if (s.type === "condition") {
      if (typeof c.then === "string" && !ids.has(c.then)) unknownStep(ctx, ids, c.then, ["steps", i, "config", "then"], "then");
      if (typeof c.else === "string" && !ids.has(c.else)) unknownStep(ctx, ids, c.else, ["steps", i, "config", "else"], "else");
    } else if ((s.type === "loop" || s.type === "parallel") && Array.isArray(c.steps)) {
      const refs = c.steps as string[];
      for (let j = 0; j < refs.length; j++) {
        if (refs[j] === s.id)
          ctx.addIssue({
            code: "custom",
            path: ["steps", i, "config", "steps", j],
            message: `step '${s.id}' cannot contain itself`,
            input: refs[j],
          });
        else if (!ids.has(refs[j])) unknownStep(ctx, ids, refs[j], ["steps", i, "config", "steps", j], "step");
      }
      if (new Set(refs).size !== refs.length) uniqueCheck(ctx, refs, (j) => ["steps", i, "config", "steps", j], "the step");
    }
  }
}

const WorkflowObject = z.strictObject(workflowShape).superRefine((w, ctx) => workflowRules(w as unknown as WorkflowFields, ctx));
export const Workflow = document(WorkflowObject).meta({
  id: "Workflow",
  description: "A workflow. The runtime-validation schema of the kind, and the body of POST /v1/workflows.",
});
export const WorkflowUpdate = document(z.strictObject(patchShape(workflowShape))).meta({ id: "WorkflowUpdate" });
export const WorkflowRecord = z
  .object(recordShape(workflowShape, "Workflow", true, "wf_01JD2Y7X3Q9W6E8R4T5Y7U9I0P"))
  .meta({ id: "WorkflowRecord" });

export type Workflow = z.output<typeof Workflow>;
export type WorkflowInput = z.input<typeof WorkflowObject>;
