// GET, PATCH, DELETE /v1/workflows/{id}: retrieve, update and delete a workflow
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/workflows/{id}");
