// GET /v1/events/{id}: retrieve an event
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/events/{id}");
