import { z } from "zod";
import { AIModel } from "./ai-model";
import { AgentMemory } from "./agent-memory";
import {
  document,
  intIn,
  jsonObject,
  names,
  patchShape,
  positiveInt,
  prose,
  recordShape,
  resourceId,
  text,
  typeTag,
  uniqueCheck,
} from "./shared";

// Agent ($type Agent): an AI worker with a role, a system prompt, a model, tools and limits.

export const AGENT_CAPABILITIES = ["text", "code", "analysis", "research", "planning", "execution", "multimodal"] as const;

export const AgentHandoff = z
  .strictObject({
    enabled: z.boolean(),
    agents: names().optional().meta({ description: "Agents this one may hand over to" }),
    conditions: prose(2_000).optional().meta({ description: "When to hand over" }),
  })
  .meta({ id: "AgentHandoff" });

export const agentShape = {
  $id: resourceId(),
  $type: typeTag("Agent"),
  name: text(200),
  role: text(1_000),
  systemPrompt: text(200_000),
  model: AIModel,
  tools: names(200).optional().meta({ description: "Tool ids (or names of tools the runtime provides)" }),
  toolConfig: jsonObject("Per-tool settings, keyed by tool id").optional(),
  // An agent without a memory setting keeps the conversation of one session (AgentMemory's default type).
  memory: AgentMemory.prefault({}),
  capabilities: z.array(z.enum(AGENT_CAPABILITIES)).max(AGENT_CAPABILITIES.length).optional(),
  handoff: AgentHandoff.optional(),
  timeout: positiveInt(86_400).default(300).meta({ description: "Seconds per run" }),
  maxToolCalls: intIn(0, 10_000).default(10),
  streaming: z.boolean().default(true),
  costLimit: z
    .strictObject({
      maxTokens: positiveInt().optional(),
      maxCost: z.number().positive("must be more than 0").max(1_000_000_000).optional().meta({ description: "USD" }),
    })
    .optional(),
  guardrails: z
    .strictObject({
      contentFilter: z.boolean().optional(),
      pii: z.boolean().optional(),
      toxicity: z.boolean().optional(),
      custom: z.array(text(1_000)).max(50).optional(),
    })
    .optional(),
  avatar: text(2_048).optional(),
  color: text(50).optional(),
};

type AgentFields = z.output<z.ZodObject<typeof agentShape>>;

function agentRules(a: AgentFields, ctx: z.RefinementCtx) {
  if (a.tools) uniqueCheck(ctx, a.tools, (i) => ["tools", i], "the tool");
  if (a.capabilities) uniqueCheck(ctx, a.capabilities, (i) => ["capabilities", i], "the capability");
  if (a.handoff?.agents) uniqueCheck(ctx, a.handoff.agents, (i) => ["handoff", "agents", i], "the agent");
}

const AgentObject = z.strictObject(agentShape).superRefine(agentRules);
export const Agent = document(AgentObject).meta({
  id: "Agent",
  description: "An AI agent. The runtime-validation schema of the kind, and the body of POST /v1/agents.",
});
export const AgentUpdate = document(z.strictObject(patchShape(agentShape))).meta({ id: "AgentUpdate" });
export const AgentRecord = z.object(recordShape(agentShape, "Agent", true, "agt_01JD2Y7X3Q9W6E8R4T5Y7U9I0P")).meta({ id: "AgentRecord" });

export type Agent = z.output<typeof Agent>;
export type AgentInput = z.input<typeof AgentObject>;
export type AgentUpdate = z.output<typeof AgentUpdate>;
