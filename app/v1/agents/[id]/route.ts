// GET, PATCH, DELETE /v1/agents/{id}: retrieve, update and delete an agent
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/agents/{id}");
