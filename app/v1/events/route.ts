// GET /v1/events: list events
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/events");
