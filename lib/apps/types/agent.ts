import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, type AppTypeMeta } from "./fields";

// Agent: AI agents, their tools, prompts and runs.

export const AgentConfig = z.object({
  showAgents: flag(),
  showMCPTools: flag(),
  showPrompts: flag(),
  showRuns: flag(),
  showTrainingData: flag(false),
  modelProviders: names(),
  agentTypes: names(),
  enablePlayground: flag(),
});

export const AgentApp = z.object({
  ...baseApp({ views: ["agents", "tools", "prompts", "runs", "playground"], panels: ["agent-status", "recent-runs", "tool-usage"] }),
  type: z.literal("Agent").default("Agent"),
  config: AgentConfig.prefault({}),
});
export type AgentApp = z.infer<typeof AgentApp>;

export const agentMeta: AppTypeMeta = {
  description: "AI agents: their tools, prompts and runs, with a playground to try them.",
  views: {
    agents: "Agents with their model, tools and status.",
    tools: "The MCP tools available to agents and which agents use each one.",
    prompts: "Versioned prompts and the agents that use them.",
    runs: "Every agent run with its input, steps, tool calls, cost and outcome.",
    playground: "Chat with an agent and inspect each step it takes.",
  },
  panels: {
    "agent-status": "Each agent's state (idle, running or failing) and its last run.",
    "recent-runs": "The latest runs with agent, duration, tokens used and result.",
    "tool-usage": "Calls per tool this week, with their error rates.",
  },
};
