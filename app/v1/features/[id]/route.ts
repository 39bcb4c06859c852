// GET, PATCH, DELETE /v1/features/{id}: retrieve, update and delete a feature
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/features/{id}");
