// GET, PATCH, DELETE /v1/triggers/{id}: retrieve, update and delete a trigger
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/triggers/{id}");
