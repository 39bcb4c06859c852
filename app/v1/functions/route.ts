// GET, POST /v1/functions: list and create functions
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/functions");
