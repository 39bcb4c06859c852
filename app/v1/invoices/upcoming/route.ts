// GET /v1/invoices/upcoming: the running period's invoice
import { serve } from "@/lib/server/serve";

export const { GET, POST, PATCH, PUT, DELETE } = serve("/v1/invoices/upcoming");
