// POST /v1/subscriptions/{id}/cancel: cancel now or at the period's end
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/subscriptions/{id}/cancel");
