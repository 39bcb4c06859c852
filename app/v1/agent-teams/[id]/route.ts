// GET, PATCH, DELETE /v1/agent-teams/{id}: retrieve, update and delete an agent team
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/agent-teams/{id}");
