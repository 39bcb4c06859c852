import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { getCatalogProduct, serializeCatalogProduct } from "@/lib/products/catalog";
import type { StoredApiBlock } from "@/lib/products/serialize";
import { checkUrlTarget } from "@/lib/webhooks/url-safety";
import { DeveloperApp } from "./developer-app";
import { appConfigOf } from "./manage-apps";

// A product's developer portal (/p/{slug}): the stored Developer app and the products it presents, as a visitor
// may see them. A draft app is seen by its own business only; a product that is not public and active is left out
// for anyone else, as the catalogue leaves it out.

export type PortalProduct = ReturnType<typeof serializeCatalogProduct>;

export interface ProductPortal {
  appId: string;
  slug: string;
  status: "draft" | "published";
  businessId: string;
  providerName: string;
  app: DeveloperApp;
  products: PortalProduct[];
  /** The visitor belongs to the business that owns the portal. */
  own: boolean;
}

export async function loadProductPortal(slug: string, viewerBusinessId: string | null): Promise<ProductPortal | null> {
  if (!/^[a-z0-9-]{3,63}$/.test(slug)) return null;
  const row = await db.app.findUnique({ where: { slug } });
  if (!row || row.type !== "Developer") return null;
  const own = viewerBusinessId === row.businessId;
  if (row.status !== "published" && !own) return null;
  const business = await db.business.findUnique({ where: { id: row.businessId }, select: { name: true } });
  const products: PortalProduct[] = [];
  for (const id of row.products as string[]) {
    try {
      const p = await getCatalogProduct(id, own ? { businessId: row.businessId } : null);
      products.push(p);
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  }
  return {
    appId: row.id,
    slug: row.slug,
    status: row.status as ProductPortal["status"],
    businessId: row.businessId,
    providerName: business?.name ?? row.name,
    app: DeveloperApp.parse(appConfigOf(row)),
    products,
    own,
  };
}

/** Where a product's calls go: the app's apiBaseUrl when it presents this one product, else the product's gateway. */
export function gatewayAddress(portal: ProductPortal, product: PortalProduct, origin: string): string {
  if (portal.app.config.apiBaseUrl && portal.products.length === 1) return portal.app.config.apiBaseUrl;
  return `${origin}/gw/${product.slug}`;
}

/** The portal's views in the order of `defaultViews`, each only when the config switches it on. */
const VIEW_PATHS: Record<string, { path: string; label: string; on?: (c: DeveloperApp["config"]) => boolean }> = {
  overview: { path: "", label: "Overview" },
  "api-keys": { path: "/keys", label: "API keys", on: (c) => c.showAPIKeys },
  webhooks: { path: "/webhooks", label: "Webhooks", on: (c) => c.showWebhooks },
  usage: { path: "/usage", label: "Usage", on: (c) => c.showUsage },
  logs: { path: "/logs", label: "Logs", on: (c) => c.showLogs },
  docs: { path: "/docs", label: "Documentation", on: (c) => c.showDocs },
  // The product as an MCP server (docs/mcp.md): part of the API's documentation, so shown with it.
  mcp: { path: "/mcp", label: "AI agents", on: (c) => c.showDocs },
  settings: { path: "/settings", label: "Settings" },
};

export interface PortalNavItem {
  view: string;
  label: string;
  href: string;
}

export function portalViews(app: DeveloperApp): string[] {
  const views = app.defaultViews.filter((v) => VIEW_PATHS[v] && (VIEW_PATHS[v].on?.(app.config) ?? true));
  // Apps stored before the MCP view existed list their views without it: it follows the documentation.
  const docs = views.indexOf("docs");
  if (docs !== -1 && !app.defaultViews.includes("mcp")) views.splice(docs + 1, 0, "mcp");
  return views;
}

/**
 * Whether the portal serves a view: its `show…` switch is on (overview, docs' switch aside, and settings always are).
 * `defaultViews` only orders the navigation, so a view left out of it is still reachable by its address.
 */
export function viewEnabled(app: DeveloperApp, view: string): boolean {
  const v = VIEW_PATHS[view];
  return Boolean(v) && (v.on?.(app.config) ?? true);
}

export function viewOfPath(path: string): string | undefined {
  return Object.entries(VIEW_PATHS).find(([, v]) => v.path === `/${path}`)?.[0];
}

/** The app's own navigation when it has one (paths starting with '/' are inside the portal), else its views. */
export function portalNavigation(portal: ProductPortal): PortalNavItem[] {
  const base = `/p/${portal.slug}`;
  if (portal.app.navigation?.length)
    return portal.app.navigation.map((n) => ({
      view: n.href,
      label: n.label,
      href: /^https?:\/\//.test(n.href) ? n.href : `${base}${n.href === "/" ? "" : n.href.startsWith("/") ? n.href : `/${n.href}`}`,
    }));
  // "Use with AI agents" only where a product has an OpenAPI document to make tools from.
  const hasTools = portal.products.some((p) => p.api && (p.api.openapiUrl || p.api.hasOpenapiDocument));
  const views = portalViews(portal.app).filter((v) => v !== "mcp" || hasTools);
  return (views.includes("overview") ? views : ["overview", ...views]).map((v) => ({
    view: v,
    label: VIEW_PATHS[v].label,
    href: `${base}${VIEW_PATHS[v].path}`,
  }));
}

const MAX_DOCUMENT = 1_000_000;

/** The product's OpenAPI document (uploaded, or fetched from its openapiUrl) with the gateway as its only server. */
export async function productOpenApiDocument(productId: string, serverUrl: string): Promise<Record<string, unknown> | null> {
  const row = await db.product.findUnique({ where: { id: productId }, select: { api: true } });
  const api = row?.api as StoredApiBlock | null | undefined;
  let doc: Record<string, unknown> | null = api?.openapiDocument ?? null;
  if (!doc && api?.openapiUrl) doc = await fetchDocument(api.openapiUrl);
  if (!doc) return null;
  return withGatewayAuth({ ...doc, servers: [{ url: serverUrl, description: "The API through the platform's gateway" }] });
}

/** The security scheme the gateway asks for: the consumer's platform key as a Bearer token (try-it fills it in). */
export const GATEWAY_SECURITY_SCHEME = "bearerAuth";
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Through the gateway every operation takes the consumer's platform key, whatever the upstream itself asks for (the
 * gateway adds the provider's own secrets), so the document says so: one Bearer scheme, required everywhere.
 */
function withGatewayAuth(doc: Record<string, unknown>): Record<string, unknown> {
  const components = (doc.components ?? {}) as Record<string, unknown>;
  const paths = Object.fromEntries(
    Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown>>).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item ?? {}).map(([method, op]) => {
          if (!HTTP_METHODS.includes(method) || !op || typeof op !== "object") return [method, op];
          const { security: _own, ...rest } = op as Record<string, unknown>;
          return [method, rest];
        }),
      ),
    ]),
  );
  return {
    ...doc,
    paths,
    components: {
      ...components,
      securitySchemes: {
        [GATEWAY_SECURITY_SCHEME]: {
          type: "http",
          scheme: "bearer",
          description: "An API key of your subscription (sk_test_… or sk_live_…).",
        },
      },
    },
    security: [{ [GATEWAY_SECURITY_SCHEME]: [] }],
  };
}

async function fetchDocument(url: string): Promise<Record<string, unknown> | null> {
  if (await checkUrlTarget(url, "OpenAPI URLs")) return null;
  try {
    const res = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(5_000), headers: { accept: "application/json" } });
    const text = res.ok ? await res.text() : "";
    if (!text || text.length > MAX_DOCUMENT) return null;
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
