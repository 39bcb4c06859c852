import { z } from "zod";
import { EXECUTION_STATUSES } from "@/lib/automation/state-machines";
import { document, isoDateTime, jsonObject, jsonValue, patchShape, prose, recordShape, resourceId, text, typeTag } from "./shared";

// ExecutionContext ($type ExecutionContext): one run of a workflow, agent or function, with its status (see
// lib/automation/state-machines.ts), input, output and error. `id` and `$id` are the same, assigned by the server.

export const executionShape = {
  $id: resourceId(),
  $type: typeTag("ExecutionContext"),
  id: z.string().max(64).optional().meta({ readOnly: true, description: "The execution's id (exec_…), assigned by the server" }),
  parentId: text(64).optional().meta({ description: "The execution that started this one" }),
  userId: text(200).optional(),
  workspaceId: text(200).optional(),
  startedAt: isoDateTime().optional().meta({ description: "ISO 8601; when omitted on create, the time the server receives the request" }),
  endedAt: isoDateTime().optional().meta({ description: "Set by the server when the status becomes final, unless given" }),
  status: z
    .enum(EXECUTION_STATUSES)
    .default("pending")
    .meta({ description: "New executions start 'pending' unless told; later changes follow the execution state machine" }),
  input: jsonValue().meta({ description: "The run's input (any JSON value, null included)" }),
  output: jsonValue().optional(),
  error: z.strictObject({ message: text(10_000), code: text(200).optional(), stack: prose(100_000).optional() }).optional(),
  metadata: jsonObject().optional(),
};

const ExecutionContextObject = z.strictObject(executionShape).superRefine((e, ctx) => {
  if (e.startedAt && e.endedAt && Date.parse(e.endedAt) < Date.parse(e.startedAt)) {
    ctx.addIssue({ code: "custom", path: ["endedAt"], message: `is before startedAt (${e.startedAt})`, input: e.endedAt });
  }
  const self = e.$id ?? e.id;
  if (self !== undefined && e.parentId === self)
    ctx.addIssue({ code: "custom", path: ["parentId"], message: "an execution cannot be its own parent", input: e.parentId });
  if (e.$id !== undefined && e.id !== undefined && e.$id !== e.id)
    ctx.addIssue({ code: "custom", path: ["id"], message: "must equal $id", input: e.id });
});
export const ExecutionContext = document(ExecutionContextObject).meta({
  id: "ExecutionContext",
  description: "An execution context. The runtime-validation schema of the kind, and the body of POST /v1/executions.",
});
export const ExecutionContextUpdate = document(z.strictObject(patchShape(executionShape, { notNull: ["status"], omit: ["id"] }))).meta({
  id: "ExecutionContextUpdate",
  description: "Fields to change; a new status must be a legal move",
});
export const ExecutionContextRecord = z
  .object({
    ...recordShape(executionShape, "ExecutionContext", true, "exec_01JD2Y7X3Q9W6E8R4T5Y7U9I0P"),
    startedAt: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "ExecutionContextRecord" });

export type ExecutionContext = z.output<typeof ExecutionContext>;
export type ExecutionContextInput = z.input<typeof ExecutionContextObject>;
