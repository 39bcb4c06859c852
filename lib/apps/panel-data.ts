import { now } from "@/lib/clock";
import { firstPage, type CollectionSpec } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import { usageMetrics, type Period } from "@/lib/usage/metrics";
import { usageQuota } from "@/lib/usage/quota";
import { LOG_COLLECTION, listLogs } from "@/lib/usage/routes";
import { revenueByProductAndMonth } from "@/lib/billing/revenue";
import { CUSTOMER_COLLECTION, listCustomers } from "@/lib/billing/customers";
import { billingForPortal } from "@/lib/billing/portal-billing";
import { minorToDecimal } from "@/lib/billing/money";
import { API_KEY_COLLECTION, listApiKeys } from "@/lib/keys/manage-api-keys";
import { PRODUCT_COLLECTION } from "@/lib/products/product-collection";
import { listProducts } from "@/lib/products/list-products";
import { WEBHOOK_COLLECTION, listWebhooks } from "@/lib/webhooks/manage-webhooks";
import { count, rowLimit, when, type PanelBlock, type PanelScope } from "./panel-blocks";
import type { DataSource } from "./panel-registry";
import { TEAM_LOADERS } from "./panel-data-team";

// The loaders of the registry's data sources (panel-registry.ts) that read traffic and money: usage metrics,
// revenue, billing, keys, request logs, webhooks and the test/live split. Each calls the same domain functions as
// the API and the console, with the viewing member's AuthContext in the app's environment.

const DAY = 86_400_000;
const money = (minor: number, currency: string) => `${minorToDecimal(BigInt(minor), currency)} ${currency}`;
const page = (limit: number, spec: CollectionSpec) => firstPage(spec, limit);

/** The Dashboard's period (config.defaultPeriod) as a window the usage rollups answer; other apps: 30 days. */
function periodWindow(scope: PanelScope): { period: Period; days: number; label: string } {
  const p = scope.app.type === "Dashboard" ? scope.app.config.defaultPeriod : "month";
  if (p === "hour") return { period: "hour", days: 1 / 24, label: "the last hour" };
  if (p === "day") return { period: "day", days: 1, label: "the last 24 hours" };
  if (p === "week") return { period: "week", days: 7, label: "the last 7 days" };
  if (p === "quarter") return { period: "month", days: 90, label: "the last 90 days" };
  if (p === "year") return { period: "month", days: 365, label: "the last 365 days" };
  return { period: "month", days: 30, label: "the last 30 days" };
}

function metricsFor(auth: AuthContext, w: ReturnType<typeof periodWindow>, back = 0) {
  const to = new Date(now().getTime() - back * w.days * DAY);
  return usageMetrics(auth, w.period, { from: new Date(to.getTime() - w.days * DAY), to });
}

async function revenueTotals(auth: AuthContext) {
  const revenue = await revenueByProductAndMonth(auth, { months: 12 });
  const totals = new Map<string, number>();
  for (const r of revenue.data) totals.set(r.currency, (totals.get(r.currency) ?? 0) + r.total);
  return { rows: revenue.data, totals: [...totals.entries()].sort(([a], [b]) => a.localeCompare(b)) };
}

async function metrics(scope: PanelScope): Promise<PanelBlock[]> {
  const w = periodWindow(scope);
  const wanted = scope.app.type === "Dashboard" ? scope.app.config.metrics : ["revenue"];
  const [current, previous, revenue, customers] = await Promise.all([
    metricsFor(scope.auth, w),
    wanted.includes("growth") ? metricsFor(scope.auth, w, 1) : null,
    wanted.includes("revenue") ? revenueTotals(scope.auth) : null,
    wanted.includes("users") ? listCustomers(scope.auth, page(1, CUSTOMER_COLLECTION)) : null,
  ]);
  const items: Extract<PanelBlock, { type: "stats" }>["items"] = [
    { id: "calls", label: "API calls", value: count(current.totalRequests), hint: w.label },
    { id: "errors", label: "Errors", value: count(current.failedRequests), hint: `${current.errorRate}% of calls` },
    { id: "latency", label: "p95 latency", value: current.p95Latency === null ? "no calls" : `${current.p95Latency} ms`, hint: w.label },
  ];
  if (revenue) {
    if (!revenue.totals.length) items.push({ id: "revenue", label: "Revenue", value: "0", hint: "no sales in the last 12 months" });
    for (const [currency, total] of revenue.totals)
      items.push({
        id: `revenue-${currency}`,
        label: `Revenue (${currency})`,
        value: money(total, currency),
        hint: "invoiced and this period so far, 12 months",
      });
  }
  if (customers)
    items.push({
      id: "customers",
      label: "Customers",
      value: count(customers.pagination.total),
      hint: "businesses subscribed to your products",
    });
  if (previous) {
    const before = previous.totalRequests;
    const growth = before ? `${Math.round(((current.totalRequests - before) / before) * 1000) / 10}%` : "n/a";
    items.push({
      id: "growth",
      label: "Growth in calls",
      value: growth,
      hint: before ? "against the period before" : "no calls in the period before",
    });
  }
  if (wanted.includes("retention"))
    items.push({
      id: "retention",
      label: "Retention",
      value: "not recorded",
      hint: "needs sign-up cohorts, which the platform does not keep",
    });
  return [{ type: "stats", items }];
}

async function charts(scope: PanelScope): Promise<PanelBlock[]> {
  const w = periodWindow(scope);
  const [m, revenue] = await Promise.all([metricsFor(scope.auth, w), revenueTotals(scope.auth)]);
  const points = m.series.map((b) => ({
    label: w.period === "month" ? b.start.slice(5, 10) : b.start.slice(11, 16),
    ok: b.successful,
    errors: b.failed,
    p50Latency: b.p50Latency,
    p95Latency: b.p95Latency,
    p99Latency: b.p99Latency,
  }));
  const blocks: PanelBlock[] = [{ type: "usage-chart", caption: `API calls and errors over ${w.label}`, points }];
  for (const [currency] of revenue.totals)
    blocks.push({
      type: "revenue-chart",
      currency,
      points: revenue.rows
        .filter((r) => r.currency === currency)
        .map((r) => ({ month: r.month, product: r.productName || r.productId, amount: Number(r.totalDecimal) })),
    });
  return blocks;
}

async function usage(scope: PanelScope): Promise<PanelBlock[]> {
  const m = await usageMetrics(scope.auth, "day");
  return [
    {
      type: "stats",
      items: [
        { id: "calls-24h", label: "Calls, 24 h", value: count(m.totalRequests) },
        { id: "success-rate", label: "Success rate", value: m.totalRequests ? `${m.successRate}%` : "no calls" },
        { id: "p95-24h", label: "p95 latency", value: m.p95Latency === null ? "no calls" : `${m.p95Latency} ms` },
        { id: "active-keys", label: "Keys used", value: count(m.activeAPIKeys) },
      ],
    },
  ];
}

async function quota(scope: PanelScope): Promise<PanelBlock[]> {
  const q = await usageQuota(scope.auth);
  return [
    {
      type: "stats",
      items: [
        { id: "quota-used", label: "Requests this month", value: count(q.used), hint: `resets ${when(q.resets)}` },
        {
          id: "quota-limit",
          label: "Monthly quota",
          value: q.limit === null ? "unlimited" : count(q.limit),
          hint: `${scope.business.plan} plan`,
        },
        { id: "quota-percent", label: "Quota used", value: q.percentage === null ? "no cap" : `${q.percentage}%` },
      ],
    },
  ];
}

async function billing(scope: PanelScope): Promise<PanelBlock[]> {
  const b = await billingForPortal(scope.auth);
  const upcoming = b.upcomingBySubscription;
  return [
    {
      type: "stats",
      items: [
        { id: "plan", label: "Platform plan", value: scope.business.plan },
        ...upcoming.map((u, i) => ({
          id: `upcoming-${i}`,
          label: `Upcoming invoice${u.seller?.name ? ` (${u.seller.name})` : ""}`,
          value: money(u.total, u.currency),
          hint: `period ends ${when(u.periodEnd)}`,
        })),
        ...(upcoming.length ? [] : [{ id: "upcoming", label: "Upcoming invoice", value: "none", hint: "no current subscription" }]),
      ],
    },
    {
      type: "table",
      caption: "Invoices, newest first",
      columns: ["Number", "Seller", "Status", "Total", "Period"],
      rows: b.invoices.slice(0, rowLimit(scope)).map((i) => ({
        id: i.id,
        cells: [
          i.number,
          i.seller.name || i.seller.id,
          i.status,
          money(i.total, i.currency),
          `${when(i.periodStart)} to ${when(i.periodEnd)}`,
        ],
      })),
      empty: "No invoices yet: subscriptions to products are invoiced at the end of each period.",
    },
  ];
}

async function keys(scope: PanelScope): Promise<PanelBlock[]> {
  const list = await listApiKeys(scope.auth, page(rowLimit(scope), API_KEY_COLLECTION));
  const rows = list.data as { id: string; name: string; key: string; status: string; scopes: string[]; lastUsed: string | null }[];
  return [
    {
      type: "table",
      caption: "API keys, newest first",
      columns: ["Name", "Key", "Status", "Scopes", "Last used"],
      rows: rows.map((k) => ({ id: k.id, cells: [k.name, k.key, k.status, k.scopes.join(", ") || "none", when(k.lastUsed)] })),
      empty: "No API keys in this environment yet.",
    },
  ];
}

async function requests(scope: PanelScope): Promise<PanelBlock[]> {
  const list = await listLogs(scope.auth, page(rowLimit(scope), LOG_COLLECTION));
  const rows = list.data as { id: string; timestamp: string; method: string; path: string; statusCode: number; latency: number }[];
  return [
    {
      type: "table",
      caption: "Recent requests, newest first",
      columns: ["Status", "Request", "Latency", "Time"],
      rows: rows.map((r) => ({
        id: r.id,
        cells: [String(r.statusCode), `${r.method} ${r.path}`, `${Math.round(r.latency)} ms`, when(r.timestamp)],
      })),
      empty: "No API requests in this environment yet.",
    },
  ];
}

async function webhooks(scope: PanelScope): Promise<PanelBlock[]> {
  const list = await listWebhooks(scope.auth, page(rowLimit(scope), WEBHOOK_COLLECTION));
  const rows = list.data as { id: string; url: string; events: string[]; isActive: boolean }[];
  return [
    {
      type: "table",
      caption: "Webhook endpoints",
      columns: ["URL", "Events", "Status"],
      rows: rows.map((w) => ({ id: w.id, cells: [w.url, w.events.join(", "), w.isActive ? "active" : "disabled"] })),
      empty: "No webhook endpoints in this environment yet.",
    },
  ];
}

/** The test/live split: keys, products and calls (30 days) of each environment. */
async function environments(scope: PanelScope): Promise<PanelBlock[]> {
  const rows = await Promise.all(
    (["test", "production"] as const).map(async (environment) => {
      const auth = { ...scope.auth, environment };
      const [k, p, m] = await Promise.all([
        listApiKeys(auth, page(1, API_KEY_COLLECTION)),
        listProducts(auth, page(1, PRODUCT_COLLECTION)),
        usageMetrics(auth, "month"),
      ]);
      const name = environment === "test" ? "Test" : "Live";
      return { id: environment, cells: [name, count(k.pagination.total ?? 0), count(p.pagination.total ?? 0), count(m.totalRequests)] };
    }),
  );
  return [
    {
      type: "table",
      caption: "Test and live environments",
      columns: ["Environment", "API keys", "Products", "Calls, 30 days"],
      rows,
      empty: "",
    },
  ];
}

const TRAFFIC_LOADERS = { metrics, charts, usage, quota, billing, keys, requests, webhooks, environments };

/** Every data source of the registry has exactly one loader (the unit test checks both ways). */
export const PANEL_LOADERS: Record<Exclude<DataSource, "automation">, (scope: PanelScope) => Promise<PanelBlock[]>> = {
  ...TRAFFIC_LOADERS,
  ...TEAM_LOADERS,
};
