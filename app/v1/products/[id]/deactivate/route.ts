// POST /v1/products/{id}/deactivate: deactivate a product
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/products/{id}/deactivate");
