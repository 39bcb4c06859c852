// GET /v1/webhooks/{id}/deliveries/{deliveryId}: retrieve a delivery
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/webhooks/{id}/deliveries/{deliveryId}");
