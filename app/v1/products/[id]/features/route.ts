// GET, POST /v1/products/{id}/features: list and add a product's features
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/products/{id}/features");
