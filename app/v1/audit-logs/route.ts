// GET /v1/audit-logs: list audit entries
import { serve } from "@/lib/api/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/audit-logs");
