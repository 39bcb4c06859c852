import Link from "next/link";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/http/errors";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { getProductOrThrow } from "@/lib/products/get-product-or-throw";
import { PRICE_COLLECTION, listPrices } from "@/lib/products/prices";
import { serializeProduct, type serializePrice } from "@/lib/products/serialize";
import { grants } from "@/lib/auth/scopes";
import { Badge, Card } from "@/components/ui/primitives";
import { PricingTable } from "@/components/marketplace/pricing-table";
import { PriceCreateForm } from "@/components/marketplace/price-create-form";
import { PublishButton } from "@/components/marketplace/publish-button";
import { productCallStats, productToolStats } from "@/lib/gateway/product-stats";
import { mcpOperationRows } from "@/lib/products/mcp-settings";
import type { StoredApiBlock } from "@/lib/products/serialize";
import { McpServerForm } from "@/components/marketplace/mcp-server-form";
import { ToolCallTable } from "@/components/portal/call-via";

// One product as its provider sees it: where its calls go, its plans (add one), and publishing it to the catalogue.

export const metadata = { title: "Product · Developer Portal" };

export default async function ProductPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requirePortalContext();
  const { id } = await params;
  const row = await getProductOrThrow(ctx.auth, id).catch((e) => {
    if (e instanceof ApiError && e.status === 404) notFound();
    throw e;
  });
  const product = serializeProduct(row);
  const prices = (
    await listPrices(ctx.auth, product.id, parseCollectionQuery(new URLSearchParams({ limit: "100", sort: "createdAt" }), PRICE_COLLECTION))
  ).data as ReturnType<typeof serializePrice>[];
  const active = prices.filter((p) => p.isActive);
  const retired = prices.filter((p) => !p.isActive);
  const canWrite = grants(ctx.auth.scopes, "products:write");
  const [stats, toolStats] = await Promise.all([productCallStats(row, "day"), product.api ? productToolStats(row) : null]);
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link href="/portal/products">← Products</Link>
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold">{product.name}</h1>
        <Badge tone="info">{product.type}</Badge>
        <Badge tone={product.visibility === "public" ? "success" : "neutral"}>
          {product.visibility === "public" ? "Published" : "Private"}
        </Badge>
        {!product.isActive ? <Badge tone="warning">inactive</Badge> : null}
      </div>
      {product.description ? <p className="text-sm">{product.description}</p> : null}
      <Card title="Catalogue">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="text-slate-500">Visibility</dt>
          <dd data-testid="product-visibility">
            {product.visibility === "public" ? "Public: in every account's catalogue" : "Private: only your business sees it"}
          </dd>
          <dt className="text-slate-500">Slug</dt>
          <dd className="font-mono" data-testid="product-slug">
            {product.slug ?? "made from the name when published"}
          </dd>
          <dt className="text-slate-500">Catalogue page</dt>
          <dd>
            {product.visibility === "public" && product.slug ? (
              <Link href={`/catalog/${product.slug}`} data-testid="catalog-link">
                /catalog/{product.slug}
              </Link>
            ) : (
              <>
                Not listed. <Link href={`/catalog/${product.slug ?? product.id}`}>Preview</Link>
              </>
            )}
          </dd>
          <dt className="text-slate-500">Product id</dt>
          <dd className="font-mono text-xs">{product.id}</dd>
        </dl>
        {canWrite ? (
          <div className="mt-4">
            <PublishButton productId={product.id} visibility={product.visibility} />
          </div>
        ) : null}
      </Card>
      {product.api ? (
        <Card title="API">
          <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
            <dt className="text-slate-500">Upstream (live)</dt>
            <dd className="break-all font-mono text-xs">{product.api.upstreamUrl}</dd>
            <dt className="text-slate-500">Sandbox (test keys)</dt>
            <dd className="break-all font-mono text-xs">{product.api.sandboxUpstreamUrl}</dd>
            <dt className="text-slate-500">Timeout</dt>
            <dd>{product.api.timeoutMs.toLocaleString()} ms</dd>
            <dt className="text-slate-500">OpenAPI</dt>
            <dd className="break-all">{product.api.openapiUrl ?? (product.api.hasOpenapiDocument ? "uploaded document" : "—")}</dd>
            <dt className="text-slate-500">Secret headers</dt>
            <dd>{product.api.secretHeaderNames.length ? product.api.secretHeaderNames.join(", ") + " (values sealed)" : "none"}</dd>
          </dl>
        </Card>
      ) : null}
      {product.api ? (
        <Card title="MCP server">
          <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]" data-testid="mcp-server">
            <dt className="text-slate-500">Address</dt>
            <dd className="font-mono text-xs break-all" data-testid="mcp-address">
              {product.api.mcp.path ?? "at /mcp/{slug} once published"}
            </dd>
            <dt className="text-slate-500">State</dt>
            <dd>{product.api.mcp.enabled ? "On: agents with a subscriber's key see its tools" : "Off: /mcp answers 404"}</dd>
            <dt className="text-slate-500">OpenAPI document</dt>
            <dd>
              {product.api.hasOpenapiDocument
                ? "uploaded"
                : product.api.openapiFetchedAt
                  ? `fetched ${new Date(product.api.openapiFetchedAt).toLocaleString()}`
                  : product.api.openapiUrl
                    ? "not fetched yet"
                    : "none"}
            </dd>
          </dl>
          {canWrite ? (
            <div className="mt-4">
              <McpServerForm
                productId={product.id}
                enabled={product.api.mcp.enabled}
                operations={mcpOperationRows(row.api as StoredApiBlock | null)}
                canRefresh={!!product.api.openapiUrl}
              />
            </div>
          ) : null}
          <h3 className="mt-6 text-sm font-semibold">Tool calls in the last 7 days</h3>
          {toolStats?.tools.length ? (
            <ToolCallTable stats={toolStats.tools} caption={`Calls of each MCP tool of ${product.name} in the last 7 days`} />
          ) : (
            <p className="mt-1 text-sm text-slate-500" data-testid="no-tool-calls">
              No tool calls yet.
            </p>
          )}
        </Card>
      ) : null}
      {product.visibility === "public" && product.slug ? (
        <Card title="Calls in the last 24 hours">
          <p className="mb-3 text-sm">
            Subscribers call it at <code className="break-all">/gw/{product.slug}/…</code> (see{" "}
            <Link href="/docs/gateway">the gateway docs</Link>).
          </p>
          <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-5" data-testid="call-stats">
            <div>
              <dt className="text-slate-500">Calls</dt>
              <dd className="text-lg font-semibold">{stats.calls.toLocaleString()}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Errors</dt>
              <dd className="text-lg font-semibold">
                {stats.errors.toLocaleString()}
                {stats.serverErrors ? (
                  <span className="ml-1 text-xs text-red-700 dark:text-red-300">({stats.serverErrors} 5xx)</span>
                ) : null}
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">p50</dt>
              <dd className="text-lg font-semibold">{stats.latencyMs.p50 === null ? "—" : `${stats.latencyMs.p50.toFixed(1)} ms`}</dd>
            </div>
            <div>
              <dt className="text-slate-500">p99</dt>
              <dd className="text-lg font-semibold">{stats.latencyMs.p99 === null ? "—" : `${stats.latencyMs.p99.toFixed(1)} ms`}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Upstream circuit</dt>
              <dd className="text-lg font-semibold">{stats.circuit.state.replace("_", "-")}</dd>
            </div>
          </dl>
          {stats.topConsumers.length ? (
            <>
              <h3 className="mt-4 text-sm font-semibold">Top consumers</h3>
              <ul className="mt-1 text-sm">
                {stats.topConsumers.map((c) => (
                  <li key={c.businessId}>
                    <Link href={`/portal/customers/${c.businessId}`}>{c.name || c.businessId}</Link>: {c.calls.toLocaleString()} calls
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </Card>
      ) : null}
      <Card title="Plans">
        <PricingTable prices={active} caption={`Active plans of ${product.name}`} />
        {retired.length ? (
          <p className="mt-2 text-xs text-slate-500">Inactive plans (not offered): {retired.map((p) => p.name).join(", ")}</p>
        ) : null}
      </Card>
      {grants(ctx.auth.scopes, "prices:write") ? (
        <Card title="Add a plan">
          <PriceCreateForm productId={product.id} />
        </Card>
      ) : null}
    </div>
  );
}
