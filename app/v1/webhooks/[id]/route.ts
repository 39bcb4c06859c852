// GET, PATCH, DELETE /v1/webhooks/{id}: retrieve, update and delete a webhook endpoint
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/webhooks/{id}");
