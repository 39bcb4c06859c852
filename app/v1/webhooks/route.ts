// GET, POST /v1/webhooks: list and create webhook endpoints
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/webhooks");
