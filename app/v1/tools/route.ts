// GET, POST /v1/tools: list and create tools
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/tools");
