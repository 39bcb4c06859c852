// POST /v1/webhooks/{id}/rotate-secret: rotate the signing secret
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/webhooks/{id}/rotate-secret");
