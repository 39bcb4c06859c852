import { ApiError } from "@/lib/http/errors";

// The status machines of tasks and execution contexts (contract.md, "State transitions"):
//   Task:      pending → in_progress → completed | failed; any unfinished state → cancelled; failed → pending (retry)
//   Execution: pending → running; running ⇄ paused; running → completed | failed | timeout; any unfinished → cancelled
// "Unfinished" is a state with a way forward: pending and in_progress for tasks; pending, running and paused for
// executions. Staying in the same state is not a move and is always allowed (a repeated PATCH changes nothing).

export const TASK_STATUSES = ["pending", "in_progress", "completed", "failed", "cancelled"] as const;
export const EXECUTION_STATUSES = ["pending", "running", "paused", "completed", "failed", "cancelled", "timeout"] as const;

export type TaskStatus = (typeof TASK_STATUSES)[number];
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  pending: ["in_progress", "cancelled"],
  in_progress: ["completed", "failed", "cancelled"],
  failed: ["pending"],
  completed: [],
  cancelled: [],
};

export const EXECUTION_TRANSITIONS: Readonly<Record<ExecutionStatus, readonly ExecutionStatus[]>> = {
  pending: ["running", "cancelled"],
  running: ["paused", "completed", "failed", "timeout", "cancelled"],
  paused: ["running", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
  timeout: [],
};

export interface StateMachine<S extends string = string> {
  /** What the machine moves: "task" or "execution", for messages. */
  name: string;
  states: readonly S[];
  transitions: Readonly<Record<S, readonly S[]>>;
}

export const TASK_MACHINE: StateMachine<TaskStatus> = { name: "task", states: TASK_STATUSES, transitions: TASK_TRANSITIONS };
export const EXECUTION_MACHINE: StateMachine<ExecutionStatus> = {
  name: "execution",
  states: EXECUTION_STATUSES,
  transitions: EXECUTION_TRANSITIONS,
};

/** The states reachable in one move from `from` (empty for a final state or an unknown one). */
export function allowedNext<S extends string>(machine: StateMachine<S>, from: string): readonly S[] {
  return Object.hasOwn(machine.transitions, from) ? machine.transitions[from as S] : [];
}

/** Whether `from → to` is allowed; staying put is. */
export function canMove<S extends string>(machine: StateMachine<S>, from: string, to: string): boolean {
  return from === to || (allowedNext(machine, from) as readonly string[]).includes(to);
}

/** A state no move leaves. */
export function isFinal<S extends string>(machine: StateMachine<S>, state: string): boolean {
  return allowedNext(machine, state).length === 0;
}

/** Throws 409 STATE_CONFLICT naming the current state and the allowed next ones when `from → to` is illegal. */
export function assertMove<S extends string>(machine: StateMachine<S>, from: string, to: string): void {
  if (canMove(machine, from, to)) return;
  const allowed = allowedNext(machine, from);
  const next = allowed.length ? `it can move to ${allowed.map((s) => `'${s}'`).join(", ")}` : `'${from}' is final and cannot change`;
  throw new ApiError({
    status: 409,
    type: "conflict_error",
    code: "STATE_CONFLICT",
    field: "status",
    message: `A ${machine.name} in '${from}' cannot move to '${to}': ${next}.`,
    suggestion: allowed.length ? `Set 'status' to one of: ${allowed.join(", ")}.` : undefined,
    extra: { currentState: from, allowed: [...allowed], requested: to },
  });
}
