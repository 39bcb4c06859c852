import type { HeaderReader } from "@/lib/http/header-reader";
import { unauthenticated } from "@/lib/http/errors";

/**
 * Reads the API credential: `Authorization: Bearer <key>` (recommended) or the `api_key` query parameter.
 * Anything malformed is a plain 401; the message never repeats what was sent.
 */
export function extractCredential(headers: HeaderReader, query: URLSearchParams): string {
  const header = headers.get("authorization");
  if (header !== null) {
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match) throw unauthenticated("INVALID_API_KEY", "The Authorization header must be 'Bearer <API key>'.");
    return match[1];
  }
  const fromQuery = query.get("api_key");
  if (fromQuery !== null && fromQuery !== "") return fromQuery;
  throw unauthenticated("INVALID_API_KEY", "No API key provided. Send it as 'Authorization: Bearer <API key>'.");
}
