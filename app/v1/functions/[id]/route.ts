// GET, PATCH, DELETE /v1/functions/{id}: retrieve, update and delete a function
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/functions/{id}");
