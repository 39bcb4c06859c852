import { db } from "@/lib/db/client";
import { callScope } from "@/lib/billing/entitlement";

// RFC 8707 resource indicators for the MCP servers of API products: `{base}/mcp/{slug}` names one public API
// product. An authorization asked for with such a `resource` is bound to that product: its scope is only
// `call:<product id>` (the scope the gateway's entitlement check already requires), and its tokens are refused
// everywhere but /mcp/{slug} and /gw/{slug}/… (lib/oauth/resource-binding.ts).

export interface McpProduct {
  id: string;
  slug: string;
  name: string;
  /** The provider: the business that publishes the product. */
  businessId: string;
}

export interface McpResource {
  /** The canonical resource URI: `{base}/mcp/{slug}`. */
  url: string;
  product: McpProduct;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;
const MCP_PATH = /^\/mcp\/([^/?#]+)$/;

/** The MCP server's URL of a product, which is also its resource identifier and the tokens' audience. */
export const mcpResourceUrl = (baseUrl: string, slug: string) => `${baseUrl.replace(/\/+$/, "")}/mcp/${slug}`;

/** The scope of an authorization bound to a product's MCP server: calling that product, nothing else. */
export const resourceScopes = (product: Pick<McpProduct, "id">) => [callScope(product.id)];

/** A URL in the form both sides compare: lower-case scheme and host, no default port, no trailing slash. */
export function canonicalResource(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password || url.search || url.hash || value.includes("#")) return null;
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${url.host}${path}`;
}

/** The product slug a resource URI names, when it is `{base}/mcp/{slug}` of this server (base = its public base URL). */
export function slugOfResource(value: string, baseUrl: string): string | null {
  const canonical = canonicalResource(value);
  const base = canonicalResource(baseUrl);
  if (!canonical || !base || !canonical.startsWith(`${base}/`)) return null;
  const m = MCP_PATH.exec(canonical.slice(base.length));
  if (!m) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(m[1]);
  } catch {
    return null;
  }
  return SLUG.test(slug) ? slug : null;
}

/** The slug of a stored (canonical) resource, whatever its base: what /gw/{slug} compares with. */
export function slugOfStoredResource(resource: string): string | null {
  const m = /\/mcp\/([^/?#]+)$/.exec(resource);
  return m ? m[1] : null;
}

/** A public, active API product by slug (what the gateway serves), or null. */
export async function findMcpProduct(slug: string): Promise<McpProduct | null> {
  if (!SLUG.test(slug)) return null;
  const p = await db.product.findUnique({
    where: { slug },
    select: { id: true, slug: true, name: true, businessId: true, type: true, api: true, visibility: true, isActive: true },
  });
  if (!p || p.type !== "API" || !p.api || p.visibility !== "public" || !p.isActive || !p.slug) return null;
  return { id: p.id, slug: p.slug, name: p.name, businessId: p.businessId };
}

/** The product a `resource` parameter names, or null (RFC 8707's invalid_target). */
export async function resolveMcpResource(value: string, baseUrl: string): Promise<McpResource | null> {
  const slug = slugOfResource(value, baseUrl);
  if (!slug) return null;
  const product = await findMcpProduct(slug);
  return product ? { url: mcpResourceUrl(canonicalResource(baseUrl)!, product.slug), product } : null;
}
