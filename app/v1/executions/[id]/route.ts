// GET, PATCH, DELETE /v1/executions/{id}: retrieve, update and delete an execution context
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/executions/{id}");
