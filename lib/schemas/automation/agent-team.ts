import { z } from "zod";
import { document, patchShape, positiveInt, prose, recordShape, resourceId, text, typeTag, uniqueCheck } from "./shared";

// AgentTeam ($type AgentTeam): agents working together under one orchestration.

export const ORCHESTRATIONS = ["sequential", "parallel", "hierarchical", "consensus", "dynamic"] as const;
export const COMMUNICATION_MODES = ["broadcast", "directed", "shared_context"] as const;

export const agentTeamShape = {
  $id: resourceId(),
  $type: typeTag("AgentTeam"),
  name: text(200),
  purpose: text(5_000),
  agents: z.array(text(64)).min(1, "must list at least one agent").max(100).meta({ description: "Agent ids (agt_…)" }),
  orchestration: z.enum(ORCHESTRATIONS).meta({
    description: "sequential: in order; parallel: at once; hierarchical: a manager delegates; consensus: agents vote; dynamic: AI-driven",
  }),
  manager: text(64).optional().meta({ description: "The delegating agent's id; required for hierarchical teams and one of `agents`" }),
  communication: z.enum(COMMUNICATION_MODES),
  maxIterations: positiveInt(10_000).default(10),
  successCriteria: prose(5_000).optional(),
};

type TeamFields = z.output<z.ZodObject<typeof agentTeamShape>>;

function teamRules(t: TeamFields, ctx: z.RefinementCtx) {
  uniqueCheck(ctx, t.agents, (i) => ["agents", i], "the agent");
  if (t.orchestration === "hierarchical" && t.manager === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["manager"],
      message: "A hierarchical team needs a 'manager': the id of one of its agents.",
      params: { code: "MISSING_REQUIRED_FIELD" },
      input: undefined,
    });
  }
  if (t.manager !== undefined && !t.agents.includes(t.manager)) {
    ctx.addIssue({
      code: "custom",
      path: ["manager"],
      message: `'${t.manager.slice(0, 64)}' is not one of the team's agents; add it to 'agents' or pick one of them`,
      input: t.manager,
    });
  }
}

const AgentTeamObject = z.strictObject(agentTeamShape).superRefine(teamRules);
export const AgentTeam = document(AgentTeamObject).meta({
  id: "AgentTeam",
  description: "A team of agents. The runtime-validation schema of the kind, and the body of POST /v1/agent-teams.",
});
export const AgentTeamUpdate = document(z.strictObject(patchShape(agentTeamShape))).meta({ id: "AgentTeamUpdate" });
export const AgentTeamRecord = z
  .object(recordShape(agentTeamShape, "AgentTeam", true, "team_01JD2Y7X3Q9W6E8R4T5Y7U9I0P"))
  .meta({ id: "AgentTeamRecord" });

export type AgentTeam = z.output<typeof AgentTeam>;
export type AgentTeamInput = z.input<typeof AgentTeamObject>;
