// GET, PATCH, DELETE /v1/prices/{id}: retrieve, update and delete a price
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/prices/{id}");
