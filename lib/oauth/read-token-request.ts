import { OAuthError } from "./oauth-error";

// The token and revocation endpoints take application/x-www-form-urlencoded (RFC 6749) or, as a convenience,
// a flat JSON object of strings. A parameter sent twice is an invalid_request (§3.2), so is a body over 16 KB.

const MAX_BYTES = 16 * 1024;

export async function readTokenRequest(req: Request): Promise<Record<string, string>> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const text = await req.text();
  if (Buffer.byteLength(text) > MAX_BYTES) throw new OAuthError("invalid_request", "The request body is too large.");
  const out: Record<string, string> = {};
  if (type === "application/x-www-form-urlencoded") {
    for (const [k, v] of new URLSearchParams(text)) {
      if (k in out) throw new OAuthError("invalid_request", `The parameter '${k.slice(0, 40)}' is repeated.`);
      out[k] = v;
    }
    return out;
  }
  if (type === "application/json") {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new OAuthError("invalid_request", "The body is not valid JSON.");
    }
    if (!value || typeof value !== "object" || Array.isArray(value))
      throw new OAuthError("invalid_request", "The body must be a JSON object.");
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== "string") throw new OAuthError("invalid_request", `The parameter '${k.slice(0, 40)}' must be a string.`);
      out[k] = v;
    }
    return out;
  }
  throw new OAuthError("invalid_request", "Send the parameters as application/x-www-form-urlencoded (or application/json).");
}
