import { errorBody } from "@/lib/http/error-mapper";
import { notFound } from "@/lib/http/errors";
import { newRequestId } from "@/lib/http/request-id";
import { publicBaseUrl } from "@/lib/http/public-base-url";
import { CORS } from "./oauth-error";
import { findMcpProduct, mcpResourceUrl, resourceScopes } from "./mcp-resource";

// RFC 9728 protected resource metadata for each published API product's MCP server, at
// /.well-known/oauth-protected-resource/mcp/{slug} (the path-inserted form, RFC 9728 §3.1): which authorization
// server issues its tokens (this one), the scope to ask for and how to send the token. An MCP client that knows only
// {base}/mcp/{slug} finds it through the 401's WWW-Authenticate (bearerChallenge) or by building the path itself.

export const PROTECTED_RESOURCE_PREFIX = "/.well-known/oauth-protected-resource";

/** Where the metadata of the MCP server of the product `slug` is served. */
export const protectedResourceMetadataUrl = (baseUrl: string, slug: string) =>
  `${baseUrl.replace(/\/+$/, "")}${PROTECTED_RESOURCE_PREFIX}/mcp/${slug}`;

/** The metadata URL of any resource URL: the well-known segment inserted between its origin and its path. */
export function resourceMetadataUrlOf(resourceUrl: string): string {
  try {
    const url = new URL(resourceUrl);
    return `${url.origin}${PROTECTED_RESOURCE_PREFIX}${url.pathname.replace(/\/+$/, "")}`;
  } catch {
    return resourceUrl;
  }
}

const quoted = (s: string) => s.replace(/["\\]/g, "");

/**
 * The WWW-Authenticate value of the MCP server's 401 (MCP authorization spec; RFC 9728 §5.1):
 * `Bearer resource_metadata="{base}/.well-known/oauth-protected-resource/mcp/{slug}"`, with RFC 6750's `error` and
 * `error_description` when a token was sent and refused (leave them out when none was sent).
 */
export function bearerChallenge(baseUrl: string, slug: string, error?: { error: string; description?: string }): string {
  let value = `Bearer resource_metadata="${protectedResourceMetadataUrl(baseUrl, slug)}"`;
  if (error) value += `, error="${quoted(error.error)}"`;
  if (error?.description) value += `, error_description="${quoted(error.description)}"`;
  return value;
}

export function protectedResourceMetadata(baseUrl: string, product: { id: string; slug: string; name: string }) {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    resource: mcpResourceUrl(base, product.slug),
    authorization_servers: [base],
    scopes_supported: resourceScopes(product),
    bearer_methods_supported: ["header"],
    resource_name: product.name,
    resource_documentation: `${base}/p/${product.slug}`,
  };
}

/** GET /.well-known/oauth-protected-resource/mcp/{slug}: 200 for a public API product, 404 in the error envelope otherwise. */
export async function handleProtectedResourceRequest(req: Request): Promise<Response> {
  const baseUrl = publicBaseUrl(req);
  const path = new URL(req.url).pathname;
  const m = /^\/\.well-known\/oauth-protected-resource\/mcp\/([^/]+)$/.exec(path);
  let slug: string | null = null;
  try {
    slug = m ? decodeURIComponent(m[1]) : null;
  } catch {
    slug = null;
  }
  const product = slug ? await findMcpProduct(slug) : null;
  if (!product) {
    const requestId = newRequestId();
    const error = notFound("product", slug ?? undefined);
    return Response.json(errorBody(error, requestId, baseUrl), {
      status: 404,
      headers: { "Cache-Control": "no-store", "X-Request-Id": requestId, ...CORS },
    });
  }
  return Response.json(protectedResourceMetadata(baseUrl, product), { headers: { "Cache-Control": "public, max-age=300", ...CORS } });
}
