// GET /v1/schemas/{kind}: the JSON Schema of one automation resource (no auth)
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/schemas/{kind}");
