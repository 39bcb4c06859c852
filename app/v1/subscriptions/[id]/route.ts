// GET, PATCH /v1/subscriptions/{id}: retrieve and update a subscription
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/subscriptions/{id}");
