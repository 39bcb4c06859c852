// GET /v1/events/{id}: retrieve an event
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/events/{id}");
