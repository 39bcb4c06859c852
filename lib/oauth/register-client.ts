import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { clientIp } from "@/lib/auth/client-ip";
import { limiterStore } from "@/lib/limits/limiter";
import type { KeyPolicy } from "@/lib/limits/plans";
import { recordAudit } from "@/lib/audit/record-audit";
import { CORS, NO_STORE } from "./oauth-error";
import { checkDynamicRedirectUri } from "./redirect-uri";

// POST /oauth/register: RFC 7591 dynamic client registration, so an MCP client that knows only {base}/mcp/{slug}
// can get a client_id without a developer registering it in the portal. What registers itself gets the least:
// a public client (no secret, PKCE required), https or loopback redirect URIs only, allowed only `call:*` and only
// with a `resource` naming one product's MCP server (lib/oauth/authorization-request.ts), so every grant it obtains
// is one product's calls, approved by a user on the consent page. It belongs to no business (businessId null,
// registration "dynamic"): no business lists it, edits or deletes it; users revoke its grants under Authorized apps.
// Registrations are limited per client address (the rate limiter's store, shared across processes with Redis).

const MAX_BYTES = 16 * 1024;
const MAX_REDIRECT_URIS = 10;
const GRANT_TYPES = ["authorization_code", "refresh_token"];
/** What a self-registered client may be allowed: calls, narrowed to one product by every authorization's resource. */
export const DYNAMIC_CLIENT_SCOPES = ["call:*"];

/** Per address: 10 at once, 10 a minute, 60 an hour, 200 a day (an MCP client registers once per server it meets). */
export const REGISTRATION_POLICY: KeyPolicy = {
  capacity: Number(process.env.OAUTH_REGISTER_BURST ?? 10),
  refillPerMinute: Number(process.env.OAUTH_REGISTER_PER_MINUTE ?? 10),
  perHour: Number(process.env.OAUTH_REGISTER_PER_HOUR ?? 60),
  perDay: Number(process.env.OAUTH_REGISTER_PER_DAY ?? 200),
  concurrent: 1000,
};

type RegistrationErrorCode = "invalid_redirect_uri" | "invalid_client_metadata";

class RegistrationError extends Error {
  constructor(
    readonly code: RegistrationErrorCode | "invalid_request" | "too_many_requests",
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...NO_STORE, ...CORS, ...headers } });

const metadataError = (description: string) => new RegistrationError("invalid_client_metadata", description);

async function readMetadata(req: Request): Promise<Record<string, unknown>> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") throw metadataError("Send the client metadata as application/json (RFC 7591 §3.1).");
  const text = await req.text();
  if (Buffer.byteLength(text) > MAX_BYTES) throw metadataError("The client metadata is larger than 16 KB.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw metadataError("The body is not valid JSON.");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw metadataError("The client metadata must be a JSON object.");
  return value as Record<string, unknown>;
}

const stringList = (value: unknown, field: string, code: RegistrationErrorCode = "invalid_client_metadata"): string[] => {
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
    throw new RegistrationError(code, `${field} must be an array of strings.`);
  return value as string[];
};

export interface DynamicClientMetadata {
  redirectUris: string[];
  clientName: string;
}

/** The metadata a self-registering client may have, or a RegistrationError saying what is wrong (RFC 7591 §3.2.2). */
export function validateClientMetadata(body: Record<string, unknown>): DynamicClientMetadata {
  if (body.redirect_uris === undefined) throw new RegistrationError("invalid_redirect_uri", "redirect_uris is required.");
  const redirectUris = [...new Set(stringList(body.redirect_uris, "redirect_uris", "invalid_redirect_uri"))];
  if (!redirectUris.length) throw new RegistrationError("invalid_redirect_uri", "redirect_uris must name at least one URI.");
  if (redirectUris.length > MAX_REDIRECT_URIS)
    throw new RegistrationError("invalid_redirect_uri", `At most ${MAX_REDIRECT_URIS} redirect URIs can be registered.`);
  for (const uri of redirectUris) {
    const problem = checkDynamicRedirectUri(uri);
    if (problem) throw new RegistrationError("invalid_redirect_uri", `'${uri.slice(0, 200)}': ${problem}`);
  }
  const method = body.token_endpoint_auth_method;
  if (method !== undefined && method !== "none")
    throw metadataError(
      "Only public clients can register themselves: token_endpoint_auth_method must be 'none' (the client proves itself with PKCE).",
    );
  if (body.grant_types !== undefined) {
    const unsupported = stringList(body.grant_types, "grant_types").find((g) => !GRANT_TYPES.includes(g));
    if (unsupported)
      throw metadataError(`grant_type '${unsupported.slice(0, 60)}' is not supported; use authorization_code and refresh_token.`);
  }
  if (body.response_types !== undefined) {
    const unsupported = stringList(body.response_types, "response_types").find((t) => t !== "code");
    if (unsupported) throw metadataError(`response_type '${unsupported.slice(0, 60)}' is not supported; use code.`);
  }
  const name = body.client_name;
  if (name !== undefined && typeof name !== "string") throw metadataError("client_name must be a string.");
  // Shown on the consent page as the name the client gave itself: no control characters, at most 100 characters.
  const clientName =
    (name ?? "")
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, "")
      .trim()
      .slice(0, 100) || "Unnamed MCP client";
  return { redirectUris, clientName };
}

async function admit(ip: string | null): Promise<void> {
  const decision = await limiterStore().consume(`oauth-register:${ip ?? "unknown"}`, REGISTRATION_POLICY, now().getTime());
  if (decision.allowed) return;
  throw new RegistrationError(
    "too_many_requests",
    `Too many client registrations from this address; retry in ${decision.retryAfterSeconds} seconds.`,
    429,
    { "Retry-After": String(decision.retryAfterSeconds) },
  );
}

export async function handleRegisterRequest(req: Request): Promise<Response> {
  const ip = clientIp(req.headers);
  try {
    await admit(ip);
    const metadata = validateClientMetadata(await readMetadata(req));
    const t = now();
    const row = await db.oAuthClient.create({
      data: {
        id: newId("oauthClient"),
        businessId: null,
        environment: null,
        registration: "dynamic",
        name: metadata.clientName,
        redirectUris: metadata.redirectUris,
        scopes: DYNAMIC_CLIENT_SCOPES,
        clientType: "public",
        createdBy: null,
        createdAt: t,
        updatedAt: t,
      },
    });
    recordAudit({
      businessId: null,
      environment: null,
      actorType: "anonymous",
      actorId: null,
      action: "oauth_client.registered",
      targetType: "oauth_client",
      targetId: row.id,
      ip,
      userAgent: req.headers.get("user-agent"),
      method: "POST",
      path: "/oauth/register",
      details: { name: row.name, redirectUris: metadata.redirectUris },
    });
    return json(
      {
        client_id: row.id,
        client_id_issued_at: Math.floor(t.getTime() / 1000),
        client_name: row.name,
        redirect_uris: metadata.redirectUris,
        grant_types: GRANT_TYPES,
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope: DYNAMIC_CLIENT_SCOPES.join(" "),
      },
      201,
    );
  } catch (e) {
    if (e instanceof RegistrationError) return json({ error: e.code, error_description: e.description }, e.status, e.headers);
    console.error("client registration failed", e);
    return json({ error: "server_error", error_description: "Something failed on our side; try again." }, 500);
  }
}
