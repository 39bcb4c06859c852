// POST /v1/api-keys/{id}/reveal: show once the value of a key made by automatic rotation
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/api-keys/{id}/reveal");
