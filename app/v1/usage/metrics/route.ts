// GET /v1/usage/metrics: usage metrics for a period
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/usage/metrics");
