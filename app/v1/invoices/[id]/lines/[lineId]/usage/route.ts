// GET /v1/invoices/{id}/lines/{lineId}/usage: a line's usage events as CSV
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/invoices/{id}/lines/{lineId}/usage");
