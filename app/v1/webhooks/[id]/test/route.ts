// POST /v1/webhooks/{id}/test: send a test event
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/webhooks/{id}/test");
