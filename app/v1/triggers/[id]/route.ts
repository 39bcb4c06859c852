// GET, PATCH, DELETE /v1/triggers/{id}: retrieve, update and delete a trigger
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/triggers/{id}");
