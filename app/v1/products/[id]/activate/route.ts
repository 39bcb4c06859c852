// POST /v1/products/{id}/activate: activate a product
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/products/{id}/activate");
