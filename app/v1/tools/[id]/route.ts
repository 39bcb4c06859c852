// GET, PATCH, DELETE /v1/tools/{id}: retrieve, update and delete a tool
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/tools/{id}");
