import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { processSingleton } from "@/lib/process-state";
import { announce, cacheTtl, listenLocally, onBusReconnect, subscribe } from "@/lib/redis/bus";
import { openSecretHeaders } from "@/lib/products/api-secret-headers";
import { storedOpenApiDocument, type StoredApiBlock } from "@/lib/products/serialize";
import { toolsFromDocument, type McpTool } from "@/lib/mcp/openapi-tools";
import { NativeDate } from "@/lib/native-date";
import { openGatewaySecret } from "./gateway-secret";

// What the gateway needs of a product, by slug, from memory: its upstreams, timeout, secret headers (opened once)
// and signing secrets. A product write announces the slug on the bus (lib/redis/bus.ts), so this process and every
// other one read it again at once; entries not announced are read again after GATEWAY_CACHE_TTL_MS (default 30 s).

export interface GatewayProduct {
  id: string;
  slug: string;
  providerId: string;
  live: URL;
  sandbox: URL;
  timeoutMs: number;
  secretHeaders: Record<string, string>;
  signingSecrets: string[];
  name: string;
  /** Whether the provider serves the product at /mcp/{slug} (api.mcp.enabled, default true). */
  mcpEnabled: boolean;
  /** The product's MCP tools (lib/mcp/openapi-tools.ts), made from the stored document on first use; empty when the
   * provider turned MCP off or there is no document. */
  mcpTools(): McpTool[];
}

const TTL_MS = Number(process.env.GATEWAY_CACHE_TTL_MS ?? 30_000);
const TOPIC = "gateway-product-changed";
const S = processSingleton("gateway-products", () => ({
  bySlug: new Map<string, { at: number; product: GatewayProduct | null }>(),
  listening: false,
}));

function listen(): void {
  if (S.listening) return;
  S.listening = true;
  const drop = (slug: string) => (slug === "*" ? S.bySlug.clear() : S.bySlug.delete(slug));
  subscribe(TOPIC, drop);
  listenLocally(TOPIC, drop);
  onBusReconnect(() => drop("*"));
}

/** A product changed: the gateway reads it again (`*` when the slug is not known, e.g. a slug change). */
export function gatewayProductChanged(slug: string | null): void {
  announce(TOPIC, slug ?? "*");
}

async function load(slug: string): Promise<GatewayProduct | null> {
  const p = await db.product.findUnique({ where: { slug } });
  const api = p?.api as StoredApiBlock | null | undefined;
  // Only a public, active API product is served; a private one answers as unknown.
  if (!p || !api || p.visibility !== "public" || !p.isActive) return null;
  const current = openGatewaySecret(p.id, p.gatewaySecret);
  const previous =
    p.previousGatewaySecretExpiresAt && p.previousGatewaySecretExpiresAt > now() ? openGatewaySecret(p.id, p.previousGatewaySecret) : null;
  return {
    id: p.id,
    slug,
    providerId: p.businessId,
    live: new URL(api.upstreamUrl),
    sandbox: new URL(api.sandboxUpstreamUrl ?? api.upstreamUrl),
    timeoutMs: api.timeoutMs,
    secretHeaders: openSecretHeaders(p.id, p.apiSecretHeaders),
    signingSecrets: [current, previous].filter((s): s is string => !!s),
    name: p.name,
    mcpEnabled: api.mcp?.enabled !== false,
    mcpTools: memo(() => {
      const doc = storedOpenApiDocument(api);
      return doc ? toolsFromDocument(doc, api.mcp) : [];
    }),
  };
}

function memo<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

const pending = processSingleton("gateway-products-loading", () => new Map<string, Promise<GatewayProduct | null>>());

export function gatewayProduct(slug: string): GatewayProduct | null | Promise<GatewayProduct | null> {
  listen();
  const hit = S.bySlug.get(slug);
  if (hit && NativeDate.now() - hit.at < cacheTtl(TTL_MS)) return hit.product;
  let p = pending.get(slug);
  if (!p) {
    p = load(slug)
      .then((product) => {
        if (S.bySlug.size > 10_000) S.bySlug.clear();
        S.bySlug.set(slug, { at: NativeDate.now(), product });
        return product;
      })
      .finally(() => pending.delete(slug));
    pending.set(slug, p);
  }
  return p;
}
