// GET, PATCH, DELETE /v1/oauth-clients/{id}: retrieve, update and delete an OAuth client
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/oauth-clients/{id}");
