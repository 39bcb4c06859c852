import Link from "next/link";
import { notFound } from "next/navigation";
import { portalViews } from "@/lib/apps/product-portal";
import { portalMcpView } from "@/lib/apps/portal-mcp";
import { mcpClientSnippets } from "@/lib/mcp/client-snippets";
import { Badge } from "@/components/ui/primitives";
import { ViewHeader } from "@/components/product-portal/visitor-gate";
import { McpTryTool } from "@/components/product-portal/mcp-try-tool";
import { portalFor, requestOrigin } from "../load";
import { portalPaths, visitorFor } from "../visitor";

// /p/{slug}/mcp, "Use with AI agents": the product's MCP server (docs/mcp.md): its address, how common clients
// connect to it, its tools as the visitor's key sees them, and a form that calls a tool through the server with the
// portal's test try-it key. Shown with the documentation (its switch), for a product with an OpenAPI document.

type Params = Promise<{ slug: string }>;
type Search = Promise<Record<string, string | undefined>>;

export const metadata = { title: "Use with AI agents" };

const box = "rounded-lg border border-(--app-border) bg-(--app-card) p-4";

export default async function ProductPortalMcp({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { portal } = await portalFor((await params).slug);
  if (!portalViews(portal.app).includes("mcp")) notFound();
  const wanted = (await searchParams).product;
  const product = portal.products.find((p) => p.id === wanted) ?? portal.products[0];
  const paths = portalPaths(portal.slug);
  const here = `/p/${portal.slug}/mcp${wanted ? `?product=${encodeURIComponent(wanted)}` : ""}`;
  const visitor = await visitorFor();
  const view = await portalMcpView(product?.slug ?? null, visitor?.auth ?? null);
  const url = product?.slug ? `${await requestOrigin()}/mcp/${product.slug}` : null;
  const header = (
    <ViewHeader title="Use with AI agents">
      Point an AI agent at {product?.name ?? portal.app.name}: it is a Model Context Protocol (MCP) server whose tools are the API&apos;s
      operations. Each tool call is an API call of your subscription, rated and billed as one.
    </ViewHeader>
  );
  return (
    <div className="space-y-6">
      {header}
      {portal.products.length > 1 ? (
        <nav aria-label="Products">
          <ul className="flex flex-wrap gap-2 text-sm">
            {portal.products.map((p) => (
              <li key={p.id}>
                <Link href={`/p/${portal.slug}/mcp?product=${p.id}`} aria-current={p.id === product?.id ? "page" : undefined}>
                  {p.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {!product || !url ? (
        <p className="text-(--app-muted)">This portal presents no product that is available yet.</p>
      ) : !product.api || (!product.api.openapiUrl && !product.api.hasOpenapiDocument) ? (
        <p className="text-(--app-muted)">{product.name} has no OpenAPI document yet, so it has no tools for agents.</p>
      ) : !view.served ? (
        <p className="text-(--app-muted)" data-testid="mcp-off">
          {product.name} is not offered as an MCP server: its provider has turned it off.
        </p>
      ) : (
        <>
          <section aria-labelledby="mcp-address" className={box}>
            <h2 id="mcp-address" className="text-lg font-semibold">
              Server address
            </h2>
            <p className="mt-2">
              <code className="break-all" data-testid="mcp-url">
                {url}
              </code>
            </p>
            <p className="mt-2 text-sm text-(--app-muted)">
              Streamable HTTP. Send an API key of your subscription as <code>Authorization: Bearer sk_…</code>; make one on{" "}
              <Link href={paths.keys} className="text-(--app-accent-strong)">
                API keys
              </Link>
              .
            </p>
          </section>
          <section aria-labelledby="mcp-clients" className="space-y-4">
            <h2 id="mcp-clients" className="text-lg font-semibold">
              Connect a client
            </h2>
            {mcpClientSnippets({ url, slug: product.slug ?? portal.slug }).map((s) => (
              <div key={s.id} className={box} data-testid={`mcp-snippet-${s.id}`}>
                <h3 className="font-semibold">{s.label}</h3>
                <p className="text-sm text-(--app-muted)">{s.where}</p>
                <pre className="mt-2 max-w-full overflow-x-auto rounded bg-(--app-accent-soft) p-3 text-xs">
                  <code>{s.code}</code>
                </pre>
              </div>
            ))}
          </section>
          <section aria-labelledby="mcp-tools" className="space-y-3">
            <h2 id="mcp-tools" className="text-lg font-semibold">
              Tools
            </h2>
            {view.access.state === "signed-out" ? (
              <p className={box} data-testid="mcp-access-note">
                These are the tools {product.name} offers. An agent sees them once its key belongs to a subscription:{" "}
                <Link href={paths.signIn(here)} className="font-semibold text-(--app-accent-strong)">
                  sign in
                </Link>{" "}
                and subscribe, then try them here.
              </p>
            ) : view.access.state === "not-subscribed" ? (
              <p className={box} data-testid="mcp-access-note">
                Your project does not subscribe to {product.name} in test mode, so an agent with your key sees no tools yet (
                {view.access.message}){" "}
                {product.prices[0] ? (
                  <Link href={paths.subscribe(product.prices[0].id)} className="font-semibold text-(--app-accent-strong)">
                    Subscribe to {product.name}
                  </Link>
                ) : null}
              </p>
            ) : view.access.quotaUsedUp ? (
              <p className={box} data-testid="mcp-access-note">
                Your plan&apos;s quota for this period is used up: each tool call will say so until the next period.
              </p>
            ) : null}
            {view.tools.length ? (
              <ul className="space-y-2" data-testid="mcp-tool-list">
                {view.tools.map((t) => (
                  <li key={t.name} className={box} data-testid="mcp-tool">
                    <p className="flex flex-wrap items-center gap-2">
                      <code className="font-semibold break-all">{t.name}</code>
                      {t.annotations.readOnlyHint ? <Badge tone="neutral">read-only</Badge> : null}
                      {t.annotations.destructiveHint ? <Badge tone="warning">destructive</Badge> : null}
                    </p>
                    {t.description ? <p className="mt-1 text-sm text-(--app-muted)">{t.description}</p> : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-(--app-muted)" data-testid="mcp-no-tools">
                The provider offers no tools of {product.name} yet.
              </p>
            )}
          </section>
          {view.access.state === "ready" && view.tools.length ? (
            <section aria-labelledby="mcp-try" className={box}>
              <h2 id="mcp-try" className="text-lg font-semibold">
                Try a tool
              </h2>
              <p className="mb-3 text-sm text-(--app-muted)">
                Sends a <code>tools/call</code> to the server above, as an agent would, in test mode.
              </p>
              <McpTryTool productId={product.id} endpoint={`/mcp/${product.slug}`} tools={view.tools} />
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}
