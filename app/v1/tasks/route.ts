// GET, POST /v1/tasks: list and create tasks
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/tasks");
