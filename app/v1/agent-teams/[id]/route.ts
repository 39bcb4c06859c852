// GET, PATCH, DELETE /v1/agent-teams/{id}: retrieve, update and delete an agent team
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/agent-teams/{id}");
