// GET /v1/usage/quota: the project's monthly quota
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/usage/quota");
