import { NodeHeaders } from "@/lib/http/header-reader";
// What a request log may keep: headers and bodies up to 16 KB each, with credentials and secrets removed.

export const MAX_LOGGED_BYTES = 16 * 1024;

const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-webhook-secret"]);
const HIDDEN_HEADERS = new Set(["x-platform-client-ip"]);
const SECRET_FIELDS =
  /("(?:secret|client_secret|clientSecret|code_verifier|password|token|access_token|refresh_token|api_key|apiKey|signingSecret)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;
const SECRET_PARAMS = /([?&](?:api_key|access_token|refresh_token|client_secret|code_verifier|token|password)=)[^&#\s"]*/g;

// Every text the patterns below can match contains one of these: one scan lets the common text (no credential
// in sight) skip the replacements, which were most of the recorder's cost per request.
const MAYBE_SECRET = /sk_(?:test|live)_|whsec_|o(?:at|rt|cs|cd)_|api_key|apiKey|ecret|password|token/;

// A credential can also arrive written another way: percent-encoded (a key pasted into a URL or form, once or
// twice: %5F, %255F) or as JSON \u escapes. Such text is decoded for the check above, and then redacted with
// patterns where every character may be written either way; text without an escape keeps the cheap patterns.
const ESCAPE = /%(?:25)?[0-9A-Fa-f]{2}|\\u00[0-9A-Fa-f]{2}/;
const ESCAPES = new RegExp(ESCAPE.source, "g");
// Most text has neither "%" nor "\u00": two character searches (well under a microsecond for a list page's 11 KB)
// rule ESCAPE out before it runs. (One expression for the words and the escapes together took 27 µs on that page,
// against 8 µs for the words alone: irregexp tries every alternative at every position.)
const isEscaped = (text: string) => (text.includes("%") || text.includes("\\u00")) && ESCAPE.test(text);
const unescapeAll = (text: string) => text.replace(ESCAPES, (e) => String.fromCharCode(parseInt(e.slice(-2), 16)));

const escapedAs = (hex: string) => `(?:%(?:25)?${hex}|\\\\u00${hex})`;
const hexOf = (c: string) => [...c.charCodeAt(0).toString(16).padStart(2, "0")].map((d) => `[${d}${d.toUpperCase()}]`).join("");

interface Patterns {
  key: RegExp;
  whsec: RegExp;
  oauth: RegExp;
}

function patterns(escaped: boolean): Patterns {
  // A literal, each character as itself or (escaped) also percent- or \u-encoded.
  const lit = (s: string) => (escaped ? [...s].map((c) => `(?:${c}|${escapedAs(hexOf(c))})`).join("") : s);
  // The characters of base64url (keys, tokens) and of base64 (webhook secrets), in the same two forms.
  const b64url = escaped ? `(?:[A-Za-z0-9_-]|${escapedAs("(?:3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa]|2[Dd]|5[Ff])")})` : "[A-Za-z0-9_-]";
  const b64 = escaped ? `(?:[A-Za-z0-9+/=_-]|${escapedAs("[0-9A-Fa-f]{2}")})` : "[A-Za-z0-9+/=_-]";
  const oauthPrefix = `(${["oat", "ort", "ocs", "ocd"].map(lit).join("|")})${lit("_")}`;
  return {
    key: new RegExp(`${lit("sk_")}(${lit("test")}|${lit("live")})${lit("_")}${b64url}{8,}`, "g"),
    whsec: new RegExp(`${lit("whsec_")}${b64}{8,}`, "g"),
    oauth: new RegExp(`${oauthPrefix}(${b64url}{8,})`, "g"),
  };
}

// An OAuth prefix counts at the start of a word (so "sort_by_date" is kept) or after an escape such as %20;
// glued to other text it counts only with a full token's length after it.
const ENDS_IN_ESCAPE = new RegExp(`(?:${ESCAPE.source})$`);
function gluedToWord(text: string, at: number): boolean {
  return at > 0 && /[A-Za-z0-9]/.test(text[at - 1]) && !ENDS_IN_ESCAPE.test(text.slice(Math.max(0, at - 6), at));
}

const PLAIN = patterns(false);
const LOOSE = patterns(true);

/** API keys, OAuth tokens and secrets, webhook secrets and secret-named fields and parameters, wherever they appear in a text, raw or encoded. */
export function redactText(text: string): string {
  const escaped = isEscaped(text);
  if (!MAYBE_SECRET.test(text) && !(escaped && MAYBE_SECRET.test(unescapeAll(text)))) return text;
  const p = escaped ? LOOSE : PLAIN;
  return text
    .replace(p.key, (_m, env: string) => `sk_${unescapeAll(env)}_[REDACTED]`)
    .replace(p.whsec, "whsec_[REDACTED]")
    .replace(p.oauth, (m: string, prefix: string, rest: string, at: number, all: string) =>
      gluedToWord(all, at) && rest.length < 40 ? m : `${unescapeAll(prefix)}_[REDACTED]`,
    )
    .replace(SECRET_PARAMS, "$1[REDACTED]")
    .replace(SECRET_FIELDS, '$1"[REDACTED]"');
}

const TRUNCATED = "…[truncated]";

/** At most `max` bytes, the marker included: a logged body is never larger than the limit it is cut to. */
export function truncate(text: string, max = MAX_LOGGED_BYTES): string {
  if (Buffer.byteLength(text, "utf8") <= max) return text;
  const room = max - Buffer.byteLength(TRUNCATED, "utf8");
  const cut = Buffer.from(text, "utf8")
    .subarray(0, room)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return `${cut}${TRUNCATED}`;
}

/** Headers as logged: names in lower case, credentials hidden or redacted, at most MAX_LOGGED_BYTES of them. */
export function redactHeaders(headers: NodeHeaders | Iterable<[string, string]> | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  let size = 0;
  /** Adds one header; false once the size limit is reached (the rest are left out). */
  const add = (name: string, value: string): boolean => {
    const k = name.toLowerCase();
    if (HIDDEN_HEADERS.has(k)) return true;
    const v = SECRET_HEADERS.has(k) ? "[REDACTED]" : redactText(value);
    size += k.length + v.length;
    if (size > MAX_LOGGED_BYTES) return false;
    out[k] = v;
    return true;
  };
  if (headers instanceof NodeHeaders) headers.forEachHeader(add);
  else if (Symbol.iterator in headers) {
    for (const [name, value] of headers as Iterable<[string, string]>) if (!add(name, value)) break;
  } else for (const name in headers) if (!add(name, headers[name])) break;
  return out;
}

export function redactBody(body: string | null | undefined): string | null {
  if (!body) return null;
  // Cut first (a 1 MB body is not worth scanning whole), redact, then cut to the logged size.
  return truncate(redactText(truncate(body, 4 * MAX_LOGGED_BYTES)));
}
