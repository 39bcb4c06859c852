import { Suspense } from "react";
import Link from "next/link";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { consoleApp } from "@/lib/portal/console-app";
import { keysForLogFilter } from "@/lib/usage/log-search";
import { LogsExplorer } from "@/components/portal/logs-explorer";
import { subscribedProducts } from "@/lib/billing/marketplace-views";

export const metadata = { title: "Logs · Developer Portal" };

// Filters and the open request are the URL's parameters (?status=5xx&range=24h&request=req_…): the explorer reads
// them itself, so a search or a request can be linked to, and the usage chart links here with ?from=&to=.
export default async function DeveloperLogs() {
  const ctx = await requirePortalContext();
  const props = (await consoleApp(ctx)).app.views.logs;
  const [keys, products] = await Promise.all([keysForLogFilter(ctx.auth), subscribedProducts(ctx.auth)]);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Logs</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Every API request of this project in {ctx.environment === "test" ? "test" : "live"} mode, kept {ctx.project.retentionDays} days.
          Credentials and secrets are redacted.
        </p>
      </div>
      {products.some((p) => p.slug) ? (
        <nav aria-label="Calls by product" className="flex flex-wrap items-center gap-2 text-sm">
          <span className="text-slate-600 dark:text-slate-400">Calls of a product you subscribe to:</span>
          {products
            .filter((p) => p.slug)
            .map((p) => (
              <Link
                key={p.id}
                href={`/portal/logs?path=${encodeURIComponent(`/gw/${p.slug}/`)}`}
                className="rounded-full border border-slate-300 px-3 py-1 dark:border-slate-700"
                data-testid={`logs-product-${p.slug}`}
              >
                {p.name}
              </Link>
            ))}
        </nav>
      ) : null}
      <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
        <LogsExplorer props={props} keys={keys.map((k) => ({ id: k.id, name: k.name, revoked: k.revokedAt !== null }))} />
      </Suspense>
    </div>
  );
}
