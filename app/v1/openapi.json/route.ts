// GET /v1/openapi.json: the OpenAPI document (no auth)
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/openapi.json");
