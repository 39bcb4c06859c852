// GET, PATCH, DELETE /v1/products/{id}: retrieve, update and delete a product
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/products/{id}");
