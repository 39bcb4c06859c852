// POST /v1/api-keys/{id}/reveal: show once the value of a key made by automatic rotation
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/api-keys/{id}/reveal");
