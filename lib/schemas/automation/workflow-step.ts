import { z } from "zod";
import {
  byType,
  intIn,
  expression,
  httpUrl,
  isoDateTime,
  jsonObject,
  jsonValue,
  names,
  positiveInt,
  prose,
  stringMap,
  text,
} from "./shared";

// WorkflowStep: one step of a workflow. `config` depends on the step's `type`; the fields listed for each type
// are checked, and other fields are kept as given (configs are open, but free of prototype keys and deep nesting).

export const STEP_TYPES = ["agent", "tool", "condition", "loop", "parallel", "wait", "human", "transform", "webhook"] as const;
export const ON_ERROR = ["fail", "continue", "retry", "fallback"] as const;
export const BACKOFF = ["fixed", "exponential"] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const stepId = () => z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, "must be 1 to 100 letters, digits, '_', '-' or '.'");
const stepIds = () => z.array(stepId()).min(1, "must name at least one step").max(1_000);

export const StepRetry = z
  .strictObject({
    maxAttempts: positiveInt(100).optional(),
    backoff: z.enum(BACKOFF).optional(),
    delay: intIn(0, 86_400_000).default(1000).meta({ description: "Milliseconds before a retry" }),
  })
  .meta({ id: "StepRetry" });

const config = <S extends z.core.$ZodLooseShape>(shape: S, description: string) => z.looseObject(shape).meta({ description });

/** The config of each step type; the step-reference fields (then, else, steps) must name steps of the workflow. */
export const STEP_CONFIGS = {
  agent: config(
    { agentId: text(200).optional(), prompt: prose(100_000).optional(), input: jsonObject().optional() },
    "Runs an agent: agentId, prompt, input",
  ),
  tool: config({ toolId: text(200).optional(), parameters: jsonObject().optional() }, "Calls a tool: toolId, parameters"),
  condition: config(
    { expression: expression().optional(), then: stepId().optional(), else: stepId().optional() },
    "Branches: expression, then and else step ids",
  ),
  loop: config(
    {
      items: expression().optional(),
      while: expression().optional(),
      steps: stepIds().optional(),
      maxIterations: positiveInt(1_000_000).optional(),
    },
    "Repeats steps over items or while a condition holds",
  ),
  parallel: config(
    { steps: stepIds().optional(), waitFor: z.enum(["all", "any"]).optional() },
    "Runs steps at once: steps, waitFor all or any",
  ),
  wait: config(
    {
      duration: intIn(0, 31_536_000_000).optional().meta({ description: "Milliseconds" }),
      until: isoDateTime().optional(),
      event: text(200).optional(),
    },
    "Waits for a duration, a time or an event",
  ),
  human: config(
    { prompt: prose(10_000).optional(), assignee: text(200).optional(), options: names(50).optional(), timeout: positiveInt().optional() },
    "Waits for a person's decision: prompt, assignee, options",
  ),
  transform: config(
    { expression: expression().optional(), mapping: stringMap("Output name to expression").optional() },
    "Reshapes data: expression or mapping",
  ),
  webhook: config(
    {
      url: httpUrl(),
      method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).default("POST"),
      headers: stringMap("Request headers").optional(),
      body: jsonValue().optional(),
    },
    "Calls a URL: url (required), method (POST), headers, body",
  ),
} satisfies Record<StepType, z.ZodType>;

export const stepShape = {
  id: stepId().meta({ description: "Unique within the workflow" }),
  name: text(200),
  description: prose(5_000).optional(),
  input: stringMap("Step input: name to expression or value").optional(),
  output: text(200).optional().meta({ description: "Variable that receives the step's result" }),
  retry: StepRetry.optional(),
  onError: z.enum(ON_ERROR).optional(),
  fallbackStep: stepId().optional().meta({ description: "Step run when this one fails and onError is 'fallback'" }),
  timeout: positiveInt().optional().meta({ description: "Milliseconds" }),
  condition: expression().optional().meta({ description: "Run the step only when this holds" }),
};

const variant = <T extends StepType>(type: T) => z.strictObject({ ...stepShape, type: z.literal(type), config: STEP_CONFIGS[type] });

type StepFields = z.output<ReturnType<typeof variant>>;

/** The rules one step can check alone; those naming other steps are the workflow's (workflow.ts). */
export function stepRules(step: StepFields, ctx: z.RefinementCtx, at: (string | number)[] = []) {
  if (step.onError === "fallback" && step.fallbackStep === undefined) {
    ctx.addIssue({
      code: "custom",
      path: [...at, "fallbackStep"],
      message: `Step '${step.id}' has onError 'fallback' but no 'fallbackStep': name the step to run when it fails.`,
      params: { code: "MISSING_REQUIRED_FIELD" },
      input: undefined,
    });
  }
  if (step.fallbackStep !== undefined && step.fallbackStep === step.id) {
    ctx.addIssue({ code: "custom", path: [...at, "fallbackStep"], message: "cannot be the step itself", input: step.fallbackStep });
  }
}

export const WorkflowStep = byType(
  STEP_TYPES,
  [
    variant("agent"),
    variant("tool"),
    variant("condition"),
    variant("loop"),
    variant("parallel"),
    variant("wait"),
    variant("human"),
    variant("transform"),
    variant("webhook"),
  ],
  "step",
)
  .superRefine((step, ctx) => stepRules(step as StepFields, ctx))
  .meta({ id: "WorkflowStep", description: "One step of a workflow; `config` depends on `type`" });

export type WorkflowStep = z.output<typeof WorkflowStep>;
export type WorkflowStepInput = z.input<typeof WorkflowStep>;
