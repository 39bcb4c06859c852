import type { AuthContext } from "@/lib/http/auth-context";

/** The slice of data a key may see: its business, in its environment (test keys never see live data). */
export function tenantWhere(auth: AuthContext) {
  return { businessId: auth.businessId, environment: auth.environment };
}
