// POST /v1/webhooks/{id}/test: send a test event
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/webhooks/{id}/test");
