import { db } from "@/lib/db/client";
import { isIdOf } from "@/lib/ids";
import { hashesEqual } from "@/lib/keys/key-format";
import type { OAuthClient as ClientRow } from "@/generated/prisma-sqlite";
import { OAuthError } from "./oauth-error";
import { hashSecret, hasSecretShape } from "./token-format";

// Client authentication at the token and revocation endpoints (RFC 6749 §2.3): HTTP Basic
// (client_secret_basic, the default of most libraries), client_id and client_secret in the body
// (client_secret_post), or client_id alone for public clients (none), which prove themselves with PKCE.
// Exactly one method per request; any failure is invalid_client, 401, with a Basic challenge when Basic was tried.

export interface AuthenticatedClient {
  client: ClientRow;
  method: "client_secret_basic" | "client_secret_post" | "none";
}

function basicCredentials(header: string | null): { id: string; secret: string } | null {
  if (!header || !/^basic /i.test(header)) return null;
  let decoded: string;
  try {
    decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  } catch {
    return null;
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  // Each part is form-urlencoded before encoding (§2.3.1).
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, " "));
    } catch {
      return s;
    }
  };
  return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
}

export async function authenticateClient(req: Request, params: Record<string, string>): Promise<AuthenticatedClient> {
  const header = req.headers.get("authorization");
  const basic = basicCredentials(header);
  const usedBasic = !!header && /^basic /i.test(header);
  const challenge = usedBasic ? { "WWW-Authenticate": 'Basic realm="oauth"' } : undefined;
  const fail = (description: string, client: ClientRow | null = null): never => {
    throw Object.assign(new OAuthError("invalid_client", description, 401, challenge), { client });
  };
  if (usedBasic && !basic) fail("The Basic credentials are malformed.");
  if (basic && params.client_secret !== undefined)
    throw new OAuthError("invalid_request", "Use one client authentication method, not both Basic and client_secret.");
  if (basic && params.client_id !== undefined && params.client_id !== basic.id)
    throw new OAuthError("invalid_request", "client_id does not match the Basic credentials.");
  const clientId = basic?.id ?? params.client_id;
  const secret = basic?.secret ?? params.client_secret;
  if (!clientId) fail("Client authentication is required: send client_id (and client_secret for confidential clients).");
  const client = isIdOf("oauthClient", clientId!) ? await db.oAuthClient.findUnique({ where: { id: clientId } }) : null;
  if (!client) fail("Unknown client.");
  if (client!.clientType === "public") {
    if (secret !== undefined && secret !== "") fail("A public client has no secret.", client);
    return { client: client!, method: "none" };
  }
  if (!secret) fail("This client is confidential: send its client_secret.", client);
  const ok = hasSecretShape("clientSecret", secret!) && !!client!.secretHash && hashesEqual(hashSecret(secret!), client!.secretHash);
  if (!ok) fail("The client secret is wrong.", client);
  return { client: client!, method: basic ? "client_secret_basic" : "client_secret_post" };
}

/** The client an invalid_client refusal named, when it exists: whose audit log the refusal belongs to. */
export const clientOfFailure = (e: unknown): ClientRow | null => (e as { client?: ClientRow | null }).client ?? null;
