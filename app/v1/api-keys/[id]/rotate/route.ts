// POST /v1/api-keys/{id}/rotate: rotate an API key
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/api-keys/{id}/rotate");
