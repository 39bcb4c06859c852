import type { HeaderReader } from "@/lib/http/header-reader";
import { forbidden } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { ipAllowed } from "./ip-match";
import { referrerAllowed, refererHost } from "./referrer-match";

/** A key's IP and referrer allow-lists: 403 with a code that says which one refused, and nothing more. */
export function enforceRestrictions(auth: AuthContext, ip: string | null, headers: HeaderReader): void {
  const r = auth.restrictions;
  if (!r) return;
  const subject = { keyId: auth.principal.id, businessId: auth.businessId, environment: auth.environment };
  if (r.ipWhitelist?.length && !ipAllowed(r.ipWhitelist, ip)) {
    throw forbidden("IP_NOT_ALLOWED", "This API key may not be used from this IP address.", undefined, subject);
  }
  if (r.referrerWhitelist?.length && !referrerAllowed(r.referrerWhitelist, refererHost(headers))) {
    throw forbidden("REFERRER_NOT_ALLOWED", "This API key may not be used from this site.", undefined, subject);
  }
}
