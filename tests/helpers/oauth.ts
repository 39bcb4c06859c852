// The OAuth flow over plain HTTP for the API tests: a portal user signed in through next-auth's credentials
// endpoint (a real session cookie), a client registered through /v1/oauth-clients, and the consent page's form
// posted as a browser would post it. The OAuth client side is oauth4webapi, a standards-compliant library.
import { randomBytes } from "node:crypto";
import * as oauth from "oauth4webapi";
import { createUserWithBusiness } from "@/lib/portal/sign-up";
import { BASE_URL, client as apiClient, request, seedBusiness, type ApiClient } from "./api";
import { db } from "./db";

export { oauth };
export const insecure = { [oauth.allowInsecureRequests]: true } as const;
export const REDIRECT_URI = "http://127.0.0.1:9/callback";
const PASSWORD = "correct horse battery staple";

/** Cookies from Set-Cookie headers, as a Cookie header value (name=value pairs). */
function cookiesOf(res: Response, jar: Map<string, string>) {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(";");
    const i = pair.indexOf("=");
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

export interface PortalUser {
  userId: string;
  email: string;
  businessId: string;
  cookie: string;
  role: string;
}

/** A user with a business of their own (enterprise plan, so limits stay out of the way), signed in. */
export async function portalUser(opts: { role?: string; businessId?: string } = {}): Promise<PortalUser> {
  const email = `oauth-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}@example.com`;
  const user = await createUserWithBusiness({
    email,
    name: "OAuth tester",
    password: PASSWORD,
    businessName: `OAuth business ${randomBytes(2).toString("hex")}`,
  });
  let membership = await db.membership.findFirstOrThrow({ where: { userId: user.id } });
  await db.business.update({ where: { id: membership.businessId }, data: { plan: "enterprise" } });
  if (opts.businessId || opts.role) {
    // Put the user in another business (with this role) instead of their own.
    await db.membership.delete({ where: { id: membership.id } });
    membership = await db.membership.create({
      data: {
        id: `mem_${randomBytes(8).toString("hex")}`,
        userId: user.id,
        businessId: opts.businessId ?? membership.businessId,
        role: opts.role ?? "owner",
        createdAt: new Date(),
      },
    });
  }
  return { userId: user.id, email, businessId: membership.businessId, cookie: await signIn(email, PASSWORD), role: membership.role };
}

/** next-auth's credentials sign-in over HTTP: the session cookie a browser would hold. */
export async function signIn(email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const csrfRes = await fetch(`${BASE_URL}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  let cookie = cookiesOf(csrfRes, jar);
  const res = await fetch(`${BASE_URL}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${BASE_URL}/portal`, json: "true" }),
  });
  cookie = cookiesOf(res, jar);
  if (!cookie.includes("session-token")) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return cookie;
}

export interface RegisteredClient {
  id: string;
  secret: string | null;
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  auth: oauth.ClientAuth;
  owner: ApiClient;
  ownerKey: string;
}

let discovered: Promise<oauth.AuthorizationServer> | undefined;
export function authorizationServer(): Promise<oauth.AuthorizationServer> {
  discovered ??= (async () => {
    const issuer = new URL(BASE_URL);
    const res = await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure });
    return oauth.processDiscoveryResponse(issuer, res);
  })();
  return discovered;
}

/** A client registered by a developer's business (its own test key), as an oauth4webapi client. */
export async function registerClient(
  body: Record<string, unknown> = {},
  owner?: { api: ApiClient; key: string },
): Promise<RegisteredClient> {
  const o: { api: ApiClient; key: string } = owner ?? (await seedBusiness().then((b) => ({ api: b.test, key: b.testKey })));
  const res = await o.api.post("/v1/oauth-clients", {
    name: "Acme Analytics",
    redirectUris: [REDIRECT_URI],
    scopes: ["products:read", "products:write"],
    ...body,
  });
  if (res.status !== 201) throw new Error(`registering a client: ${res.status} ${res.text}`);
  const data = res.body.data as { id: string; clientSecret: string | null; clientType: string };
  const as = await authorizationServer();
  const client: oauth.Client = { client_id: data.id, ...(data.clientType === "public" ? { token_endpoint_auth_method: "none" } : {}) };
  const auth = data.clientSecret ? oauth.ClientSecretBasic(data.clientSecret) : oauth.None();
  return { id: data.id, secret: data.clientSecret, as, client, auth, owner: o.api, ownerKey: o.key };
}

/** The authorization request URL, with PKCE unless told otherwise. */
export async function authorizationUrl(c: RegisteredClient, extra: Record<string, string | null> = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(c.as.authorization_endpoint!);
  const params: Record<string, string | null> = {
    response_type: "code",
    client_id: c.id,
    redirect_uri: REDIRECT_URI,
    scope: "products:read products:write",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return { url, verifier, state };
}

/** GET /oauth/authorize and then the consent page as the user; returns the page and the form's fields. */
export async function openConsent(user: PortalUser, url: URL) {
  const first = await fetch(url, { redirect: "manual" });
  const location = first.headers.get("location");
  if (first.status !== 302 || !location?.includes("/oauth/consent")) return { first, location, html: null, fields: null };
  const page = await fetch(new URL(location, BASE_URL), { headers: { cookie: user.cookie }, redirect: "manual" });
  const html = await page.text();
  const fields = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields.append(m[1], decodeHtml(m[2]));
  return { first, location, html, fields, page };
}

const decodeHtml = (s: string) =>
  s
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

/** Posts the consent form's decision as the browser would; returns the redirect's Location. */
export async function decide(
  user: PortalUser,
  fields: URLSearchParams,
  decision: "approve" | "deny",
  headers: Record<string, string> = {},
) {
  const body = new URLSearchParams(fields);
  body.set("decision", decision);
  const res = await fetch(`${BASE_URL}/oauth/authorize`, {
    method: "POST",
    redirect: "manual",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: user.cookie, origin: BASE_URL, ...headers },
  });
  return { res, location: res.headers.get("location"), text: res.status >= 400 ? await res.text() : "" };
}

/** The whole flow up to the code: authorize, consent, approve. */
export async function authorizeCode(c: RegisteredClient, user: PortalUser, extra: Record<string, string | null> = {}) {
  const { url, verifier, state } = await authorizationUrl(c, extra);
  const consent = await openConsent(user, url);
  if (!consent.fields) throw new Error(`no consent page: ${consent.first.status} ${consent.location}`);
  const { location } = await decide(user, consent.fields, "approve");
  if (!location) throw new Error("approval did not redirect");
  return { callback: new URL(location), verifier, state };
}

/** Code → tokens with oauth4webapi, validating the authorization response first. */
export async function tokensFor(c: RegisteredClient, user: PortalUser, extra: Record<string, string | null> = {}) {
  const { callback, verifier, state } = await authorizeCode(c, user, extra);
  const params = oauth.validateAuthResponse(c.as, c.client, callback, state);
  const res = await oauth.authorizationCodeGrantRequest(c.as, c.client, c.auth, params, REDIRECT_URI, verifier, insecure);
  const tokens = await oauth.processAuthorizationCodeResponse(c.as, c.client, res);
  return { tokens, code: params.get("code")!, verifier };
}

/** A raw POST to a token-endpoint-like path, form-encoded unless `json`. */
export async function postForm(
  path: string,
  params: Record<string, string>,
  opts: { json?: boolean; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${BASE_URL}${path}`, {
    method: "POST",
    headers: { "content-type": opts.json ? "application/json" : "application/x-www-form-urlencoded", ...(opts.headers ?? {}) },
    body: opts.json ? JSON.stringify(params) : new URLSearchParams(params),
  });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

export const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`,
});
export const bearer = (token: string) => apiClient(token);
export { request };
