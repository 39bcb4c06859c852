// GET, PATCH, DELETE /v1/tasks/{id}: retrieve, update and delete a task
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/tasks/{id}");
