import { z } from "zod";
import { Environment, Timestamp, shortText } from "./common";
import { Scope } from "./api-key";

// An OAuth client: a third-party application that asks portal users for access to their business.

/** https anywhere; http only on loopback (RFC 8252 §7.3); a private-use scheme with a dot (com.example.app:/cb). */
export function redirectUriProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (url.hash || value.includes("#")) return "must not contain a fragment";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:")
    return ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)
      ? null
      : "must use https (http is allowed on 127.0.0.1, [::1] and localhost only)";
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol) && !/^(javascript|data|vbscript|file):$/.test(url.protocol)) return null;
  return "must use https, http on loopback, or a reverse-DNS private-use scheme such as com.example.app:";
}

const RedirectUri = z
  .string()
  .max(2000)
  .superRefine((v, ctx) => {
    const problem = redirectUriProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const RedirectUris = z.array(RedirectUri).min(1).max(10).meta({ description: "Exact-match redirect URIs (at most 10)" });
const ClientScopes = z.array(Scope).min(1).max(100).meta({ description: 'The most a user can grant this client, e.g. ["products:read"]' });

export const OAuthClientCreate = z
  .strictObject({
    name: shortText(100),
    redirectUris: RedirectUris,
    scopes: ClientScopes,
    clientType: z.enum(["confidential", "public"]).optional().meta({
      description: "confidential (a server that keeps a secret; default) or public (browser or native app: no secret, PKCE required)",
    }),
  })
  .meta({ id: "OAuthClientCreate" });

export const OAuthClientUpdate = z
  .strictObject({
    name: shortText(100).optional(),
    redirectUris: RedirectUris.optional(),
    scopes: ClientScopes.optional().meta({ description: "Narrowing the scopes narrows the access of apps already authorized" }),
  })
  .meta({ id: "OAuthClientUpdate" });

export const OAuthClient = z
  .object({
    id: z.string().meta({ example: "oac_01JD2Y7X3Q9W6E8R4T5Y7U9I0P", description: "The client_id" }),
    name: z.string(),
    clientType: z.enum(["confidential", "public"]),
    clientSecret: z
      .string()
      .nullable()
      .meta({ description: "The full secret on creation only; afterwards masked; null for public clients" }),
    redirectUris: z.array(z.string()),
    scopes: z.array(z.string()),
    environment: Environment,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "OAuthClient" });

export type OAuthClientCreate = z.infer<typeof OAuthClientCreate>;
export type OAuthClientUpdate = z.infer<typeof OAuthClientUpdate>;
