// GET, POST /v1/agent-teams: list and create agent teams
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/agent-teams");
