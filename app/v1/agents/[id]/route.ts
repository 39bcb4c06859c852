// GET, PATCH, DELETE /v1/agents/{id}: retrieve, update and delete an agent
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/agents/{id}");
