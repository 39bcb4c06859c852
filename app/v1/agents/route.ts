// GET, POST /v1/agents: list and create agents
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/agents");
