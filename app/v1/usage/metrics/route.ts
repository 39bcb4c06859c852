// GET /v1/usage/metrics: usage metrics for a period
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/usage/metrics");
