// GET, POST /v1/triggers: list and create triggers
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/triggers");
