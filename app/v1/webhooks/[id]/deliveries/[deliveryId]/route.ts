// GET /v1/webhooks/{id}/deliveries/{deliveryId}: retrieve a delivery
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/webhooks/{id}/deliveries/{deliveryId}");
