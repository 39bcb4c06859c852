import { createHmac } from "node:crypto";
import { now } from "@/lib/clock";
import { serverSecret } from "@/lib/auth/server-secret";
import { hashesEqual } from "@/lib/keys/key-format";

// The consent form's CSRF token: an HMAC under the server secret over the signed-in user and the exact
// authorization request, valid for 10 minutes. A forged approve/deny from another site cannot produce it (it
// would also lack the SameSite session cookie and our Origin); a token for one request does not fit another.

const TTL_MS = 10 * 60_000;

function mac(userId: string, params: [string, string][], expires: number): string {
  const text = JSON.stringify(["oauth-consent", userId, params, expires]);
  return createHmac("sha256", serverSecret()).update(text, "utf8").digest("hex");
}

export function consentToken(userId: string, params: [string, string][]): string {
  const expires = now().getTime() + TTL_MS;
  return `${expires}.${mac(userId, params, expires)}`;
}

export function checkConsentToken(token: string | null, userId: string, params: [string, string][]): boolean {
  const m = /^(\d{1,15})\.([0-9a-f]{64})$/.exec(token ?? "");
  if (!m) return false;
  const expires = Number(m[1]);
  if (expires <= now().getTime()) return false;
  return hashesEqual(m[2], mac(userId, params, expires));
}
