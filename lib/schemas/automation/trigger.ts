import { z } from "zod";
import {
  byType,
  document,
  cron,
  expression,
  names,
  patchShape,
  prose,
  RateLimit,
  recordShape,
  resourceId,
  text,
  timeZone,
  typeTag,
  jsonObject,
} from "./shared";

// Trigger ($type Trigger): what starts a workflow, an agent or a function. `config` depends on `type`; the fields
// listed for each type are checked (a schedule's cron and time zone above all), others are kept as given.

export const TRIGGER_TYPES = ["webhook", "schedule", "event", "email", "form", "database", "file", "manual"] as const;
export const TARGET_TYPES = ["workflow", "agent", "function"] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** The id prefix of each target type (lib/ids.ts): a trigger's target must be a record of that kind. */
export const TARGET_PREFIX: Record<(typeof TARGET_TYPES)[number], string> = { workflow: "wf_", agent: "agt_", function: "fn_" };

export const TriggerTarget = z
  .strictObject({
    type: z.enum(TARGET_TYPES),
    id: text(64).meta({ description: "Id of the workflow (wf_…), agent (agt_…) or function (fn_…)" }),
  })
  .meta({ id: "TriggerTarget" });

const config = <S extends z.core.$ZodLooseShape>(shape: S, description: string) => z.looseObject(shape).meta({ description });

export const TRIGGER_CONFIGS = {
  webhook: config(
    { path: text(500).optional(), method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).optional(), secret: text(500).optional() },
    "An inbound HTTP call: path, method, secret",
  ),
  schedule: config({ cron: cron(), timezone: timeZone().default("UTC") }, "A timetable: cron (required), timezone (UTC)"),
  event: config({ event: text(200).optional(), source: text(200).optional() }, "A platform or external event"),
  email: config({ address: z.email("must be an email address").optional() }, "An email to an address"),
  form: config({ formId: text(200).optional(), fields: names().optional() }, "A form submission"),
  database: config(
    {
      table: text(200).optional(),
      operations: z
        .array(z.enum(["insert", "update", "delete"]))
        .min(1)
        .max(3)
        .optional(),
    },
    "A row change",
  ),
  file: config(
    {
      path: text(1_000).optional(),
      events: z
        .array(z.enum(["created", "updated", "deleted"]))
        .min(1)
        .max(3)
        .optional(),
    },
    "A file change",
  ),
  manual: config({ inputSchema: jsonObject("JSON Schema of the input a person provides").optional() }, "Started by hand"),
} satisfies Record<TriggerType, z.ZodType>;

const common = {
  name: text(200),
  description: prose(5_000).optional(),
  transform: expression().optional(),
  filter: expression().optional(),
  enabled: z.boolean().default(true),
  rateLimit: RateLimit.optional(),
};

export const triggerShape = {
  $id: resourceId(),
  $type: typeTag("Trigger"),
  ...common,
  target: TriggerTarget,
};

type Common = Record<string, z.ZodType>;
const variants = (shape: Common) =>
  TRIGGER_TYPES.map((type) => z.strictObject({ ...shape, type: z.literal(type), config: TRIGGER_CONFIGS[type] })) as unknown as [
    z.ZodObject,
    ...z.ZodObject[],
  ];

export const Trigger = document(byType(TRIGGER_TYPES, variants(triggerShape), "trigger")).meta({
  id: "Trigger",
  description: "A trigger. The runtime-validation schema of the kind, and the body of POST /v1/triggers.",
});

/** A trigger inside a workflow document: its target is the workflow itself unless it names another. */
export const WorkflowTrigger = byType(TRIGGER_TYPES, variants({ ...common, target: TriggerTarget.optional() }), "trigger").meta({
  id: "WorkflowTrigger",
  description: "A trigger of the workflow it is part of (target optional)",
});

/** The shape the update body and the record describe: `type` with `config` of any of the types. */
const flatShape = { ...triggerShape, type: z.enum(TRIGGER_TYPES), config: jsonObject("Type-specific settings (see Trigger)") };
export const triggerFlatShape = flatShape;

export const TriggerUpdate = document(z.strictObject(patchShape(flatShape))).meta({
  id: "TriggerUpdate",
  description: "Fields to change; the result is validated as a whole Trigger",
});
export const TriggerRecord = z
  .object(recordShape(flatShape, "Trigger", true, "trg_01JD2Y7X3Q9W6E8R4T5Y7U9I0P"))
  .meta({ id: "TriggerRecord" });

export interface Trigger {
  $id?: string;
  $type?: "Trigger";
  name: string;
  description?: string;
  type: TriggerType;
  config: Record<string, unknown>;
  target: z.output<typeof TriggerTarget>;
  transform?: string;
  filter?: string;
  enabled: boolean;
  rateLimit?: z.output<typeof RateLimit>;
}
export type TriggerInput = z.input<typeof Trigger>;
