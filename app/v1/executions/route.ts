// GET, POST /v1/executions: list and create execution contexts
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/executions");
