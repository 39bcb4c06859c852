// GET, POST /v1/oauth-clients: list and register OAuth clients
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/oauth-clients");
