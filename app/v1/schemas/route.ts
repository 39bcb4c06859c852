// GET /v1/schemas: the JSON Schemas of every automation resource (no auth)
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/schemas");
