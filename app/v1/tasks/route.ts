// GET, POST /v1/tasks: list and create tasks
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/tasks");
