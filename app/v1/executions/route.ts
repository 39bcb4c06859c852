// GET, POST /v1/executions: list and create execution contexts
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/executions");
