// GET, PATCH, DELETE /v1/api-keys/{id}: retrieve, update and revoke an API key
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/api-keys/{id}");
