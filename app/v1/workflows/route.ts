// GET, POST /v1/workflows: list and create workflows
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/workflows");
