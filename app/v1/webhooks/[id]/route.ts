// GET, PATCH, DELETE /v1/webhooks/{id}: retrieve, update and delete a webhook endpoint
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/webhooks/{id}");
