// GET, POST /v1/api-keys: list and create API keys
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/api-keys");
