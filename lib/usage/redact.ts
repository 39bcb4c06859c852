// What a request log may keep: headers and bodies up to 16 KB each, with credentials and secrets removed.

export const MAX_LOGGED_BYTES = 16 * 1024;

const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-webhook-secret"]);
const HIDDEN_HEADERS = new Set(["x-platform-client-ip"]);
const SECRET_FIELDS = /("(?:secret|client_secret|clientSecret|code_verifier|password|token|access_token|refresh_token|api_key|apiKey|signingSecret)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;

// Every text the patterns below can match contains one of these: one scan lets the common text (no credential
// in sight) skip the four replacements, which were most of the recorder's cost per request.
const MAYBE_SECRET = /sk_(?:test|live)_|whsec_|api_key|apiKey|ecret|password|token/;

/** API keys, webhook secrets and secret-named JSON fields, wherever they appear in a text. */
export function redactText(text: string): string {
  if (!MAYBE_SECRET.test(text)) return text;
  return text
    .replace(/sk_(test|live)_[A-Za-z0-9_-]{8,}/g, "sk_$1_[REDACTED]")
    .replace(/whsec_[A-Za-z0-9+/=_-]{8,}/g, "whsec_[REDACTED]")
    .replace(/\b(oat|ort|ocd|ocs)_[A-Za-z0-9_-]{8,}/g, "$1_[REDACTED]")
    .replace(/([?&]api_key=)[^&#\s"]*/g, "$1[REDACTED]")
    .replace(SECRET_FIELDS, '$1"[REDACTED]"');
}

const TRUNCATED = "…[truncated]";

/** At most `max` bytes, the marker included: a logged body is never larger than the limit it is cut to. */
export function truncate(text: string, max = MAX_LOGGED_BYTES): string {
  if (Buffer.byteLength(text, "utf8") <= max) return text;
  const room = max - Buffer.byteLength(TRUNCATED, "utf8");
  const cut = Buffer.from(text, "utf8").subarray(0, room).toString("utf8").replace(/\uFFFD$/, "");
  return `${cut}${TRUNCATED}`;
}

export function redactHeaders(headers: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  let size = 0;
  for (const [name, value] of headers) {
    const k = name.toLowerCase();
    if (HIDDEN_HEADERS.has(k)) continue;
    const v = SECRET_HEADERS.has(k) ? "[REDACTED]" : redactText(value);
    size += k.length + v.length;
    if (size > MAX_LOGGED_BYTES) break;
    out[k] = v;
  }
  return out;
}

export function redactBody(body: string | null | undefined): string | null {
  if (!body) return null;
  // Cut first (a 1 MB body is not worth scanning whole), redact, then cut to the logged size.
  return truncate(redactText(truncate(body, 4 * MAX_LOGGED_BYTES)));
}
