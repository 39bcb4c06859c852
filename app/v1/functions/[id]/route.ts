// GET, PATCH, DELETE /v1/functions/{id}: retrieve, update and delete a function
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/functions/{id}");
