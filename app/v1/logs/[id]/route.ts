// GET /v1/logs/{id}: retrieve a request log
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/logs/{id}");
