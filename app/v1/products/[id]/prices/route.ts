// GET, POST /v1/products/{id}/prices: list and add a product's prices
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/products/{id}/prices");
