// POST /v1/webhooks/{id}/rotate-secret: rotate the signing secret
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/webhooks/{id}/rotate-secret");
