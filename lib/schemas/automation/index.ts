import type { z } from "zod";
import { Agent } from "./agent";
import { AIModel } from "./ai-model";
import { AgentMemory } from "./agent-memory";
import { AgentTeam } from "./agent-team";
import { Workflow } from "./workflow";
import { WorkflowStep } from "./workflow-step";
import { Function } from "./function";
import { Trigger } from "./trigger";
import { Tool } from "./tool";
import { ToolParameter } from "./tool-parameter";
import { Task } from "./task";
import { ExecutionContext } from "./execution-context";

// The runtime-validation schemas of the automation resources, by name: one per kind, plus the parts the spec
// names (AIModel, AgentMemory, WorkflowStep, ToolParameter). GET /v1/schemas serves them as JSON Schema.

export * from "./agent";
export * from "./ai-model";
export * from "./agent-memory";
export * from "./agent-team";
export * from "./workflow";
export * from "./workflow-step";
export * from "./function";
export * from "./trigger";
export * from "./tool";
export * from "./tool-parameter";
export * from "./task";
export * from "./execution-context";
export { FORBIDDEN_KEYS, MAX_JSON_DEPTH, jsonProblem } from "./shared";
import { document } from "./shared";

// The parts are used inside the kinds as they are; validated alone they get the same document guard as a kind.
export const AUTOMATION_SCHEMAS = {
  Agent,
  AIModel: document(AIModel),
  AgentMemory: document(AgentMemory),
  AgentTeam,
  Workflow,
  WorkflowStep: document(WorkflowStep),
  Function,
  Trigger,
  Tool,
  ToolParameter: document(ToolParameter),
  Task,
  ExecutionContext,
} as const satisfies Record<string, z.ZodType>;

export type AutomationSchemaName = keyof typeof AUTOMATION_SCHEMAS;
