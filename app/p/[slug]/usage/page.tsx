import { viewEnabled } from "@/lib/apps/product-portal";
import { productUsageOverview } from "@/lib/billing/product-usage";
import { QueryProvider } from "@/components/portal/query-provider";
import { UsageCharts } from "@/components/portal/usage-charts";
import { SignInToSee, SubscribeToSee, ViewHeader } from "@/components/product-portal/visitor-gate";
import { PlanUsage } from "@/components/product-portal/plan-usage";
import { projectToolCallStats } from "@/lib/usage/tool-call-stats";
import { Card } from "@/components/ui/primitives";
import { ToolCallTable } from "@/components/portal/call-via";
import { CreditBanners } from "@/components/marketplace/credits-panel";
import { subscriptionCredits } from "@/lib/billing/credits";
import { UsageCorrectionsCard } from "@/components/portal/usage-corrections-card";
import { usageCorrections } from "@/lib/portal/usage-corrections";
import { visitorView } from "../load";

// /p/{slug}/usage: the visitor's calls of this portal's products per period (views.usage.periods), against their
// plan's rate limit and quota (showRateLimits, showQuotas) and with the period's cost so far (showCosts); the
// credits' banners when a spend cap's threshold was crossed or prepaid credits ran out; the usage the seller
// amended or voided (issue 40), when there is any.

type Params = Promise<{ slug: string }>;

export const metadata = { title: "Usage" };

export default async function ProductPortalUsage({ params }: { params: Params }) {
  const v = await visitorView((await params).slug, "usage");
  const { portal, viewer } = v;
  const props = portal.app.views.usage;
  const header = (
    <ViewHeader title="Usage" environment={viewer?.environment}>
      Your calls of {v.productNames} per period{props.showQuotas ? ", against your plan's quota" : ""}
      {props.showCosts ? ", with what they cost so far" : ""}.
    </ViewHeader>
  );
  if (!viewer)
    return (
      <div>
        {header}
        <SignInToSee slug={portal.slug} path={`/p/${portal.slug}/usage`} what={`your usage of ${v.productNames}`} />
      </div>
    );
  if (!v.current.length)
    return (
      <div>
        {header}
        <SubscribeToSee slug={portal.slug} what="calls" products={v.productNames} />
      </div>
    );
  const period = props.periods.includes("day") ? "day" : props.periods[0];
  const [overview, toolCalls, credits, corrections] = await Promise.all([
    productUsageOverview(viewer.auth, period, v.productIds),
    projectToolCallStats(viewer.auth, 7, v.productIds),
    Promise.all(v.current.map(async (s) => ({ s, summary: await subscriptionCredits(viewer.auth, s.id) }))),
    usageCorrections(
      viewer.auth.businessId,
      v.current.map((s) => s.id),
    ),
  ]);
  return (
    <div className="space-y-6">
      {header}
      {/* A spend cap's threshold crossed this period, or prepaid credits run out (issue 39). */}
      {credits.map(({ s, summary }) => (
        <CreditBanners
          key={s.id}
          summary={summary}
          periodEnd={s.currentPeriodEnd}
          product={v.current.length > 1 ? s.productName : undefined}
        />
      ))}
      <PlanUsage subscriptions={v.current} props={props} />
      {/* The console's charts refresh through TanStack Query, as in the console's layout. */}
      <QueryProvider>
        <UsageCharts
          initial={overview}
          periods={props.periods}
          initialPeriod={period}
          showCosts={props.showCosts}
          showQuota={props.showQuotas}
          portal={portal.slug}
          logsPath={viewEnabled(portal.app, "logs") ? `/p/${portal.slug}/logs` : undefined}
        />
      </QueryProvider>
      {corrections.length ? (
        <UsageCorrectionsCard
          corrections={corrections}
          description={`Usage of ${v.productNames} the seller amended or voided after reporting it, and why. The difference is billed (or refunded) with the period it belongs to.`}
        />
      ) : null}
      {toolCalls.length ? (
        <Card title="AI agents' tool calls, last 7 days">
          <ToolCallTable stats={toolCalls} caption={`Calls of each MCP tool of ${v.productNames} in the last 7 days`} />
        </Card>
      ) : null}
    </div>
  );
}
