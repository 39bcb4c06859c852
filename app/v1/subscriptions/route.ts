// GET, POST /v1/subscriptions: list and create subscriptions
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/subscriptions");
