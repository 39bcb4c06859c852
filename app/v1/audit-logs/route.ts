// GET /v1/audit-logs: list audit entries
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/audit-logs");
