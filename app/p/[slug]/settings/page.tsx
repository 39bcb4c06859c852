import { Badge, Card } from "@/components/ui/primitives";
import { CancelSubscription } from "@/components/marketplace/subscription-actions";
import { day, minorMoney, statusTone } from "@/components/marketplace/format";
import { SignInToSee, SubscribeToSee, ViewHeader } from "@/components/product-portal/visitor-gate";
import { ConsumerCredits, CreditBanners, loadCredits } from "@/components/marketplace/credits-panel";
import { visitorView } from "../load";

// /p/{slug}/settings: the visitor's account and their subscriptions to this portal's products (plan, status,
// environment), canceled through the confirm dialog and the same domain function as the console and the API; each
// current subscription's credits, spend cap, auto top-up and credit ledger (issue 39), as in the console.

type Params = Promise<{ slug: string }>;

export const metadata = { title: "Settings" };

export default async function ProductPortalSettings({ params }: { params: Params }) {
  const v = await visitorView((await params).slug, "settings");
  const { portal, viewer } = v;
  const header = (
    <ViewHeader title="Settings" environment={viewer?.environment}>
      Your account and your subscription to {v.productNames}.
    </ViewHeader>
  );
  if (!viewer)
    return (
      <div>
        {header}
        <SignInToSee slug={portal.slug} path={`/p/${portal.slug}/settings`} what="your account and subscription" />
      </div>
    );
  const credits = new Map(await Promise.all(v.current.map(async (s) => [s.id, await loadCredits(viewer.auth, s.id)] as const)));
  const several = v.current.length > 1;
  return (
    <div className="space-y-6">
      {header}
      {v.current.map((s) => (
        <CreditBanners
          key={s.id}
          summary={credits.get(s.id)!.summary}
          periodEnd={s.currentPeriodEnd}
          product={several ? s.productName : undefined}
        />
      ))}
      <Card title="Account">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]" data-testid="portal-account">
          <dt className="text-slate-600 dark:text-slate-400">Name</dt>
          <dd>{viewer.user.name ?? "—"}</dd>
          <dt className="text-slate-600 dark:text-slate-400">Email</dt>
          <dd>{viewer.user.email}</dd>
          <dt className="text-slate-600 dark:text-slate-400">Business</dt>
          <dd>
            {viewer.business.name} <span className="text-slate-600 dark:text-slate-400">({viewer.role})</span>
          </dd>
        </dl>
      </Card>
      {v.subscriptions.length === 0 ? (
        <SubscribeToSee slug={portal.slug} what="subscription settings" products={v.productNames} />
      ) : (
        v.subscriptions.map((s) => (
          <div key={s.id} className="space-y-6">
            <Card
              title={`Subscription to ${s.productName}`}
              actions={<Badge tone={statusTone(s.status)}>{s.status.replace("_", " ")}</Badge>}
            >
              <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]" data-testid="portal-subscription">
                <dt className="text-slate-600 dark:text-slate-400">Plan</dt>
                <dd>{s.priceName}</dd>
                <dt className="text-slate-600 dark:text-slate-400">Status</dt>
                <dd>
                  {s.status.replace("_", " ")}
                  {s.cancelAtPeriodEnd && s.current ? `, ends on ${day(s.currentPeriodEnd)}` : ""}
                  {s.canceledAt ? `, canceled on ${day(s.canceledAt)}` : ""}
                </dd>
                <dt className="text-slate-600 dark:text-slate-400">Environment</dt>
                <dd>{s.environment === "test" ? "Test (never charged)" : "Live"}</dd>
                <dt className="text-slate-600 dark:text-slate-400">Current period</dt>
                <dd>
                  {day(s.currentPeriodStart)} to {day(s.currentPeriodEnd)}
                </dd>
                {s.current ? (
                  <>
                    <dt className="text-slate-600 dark:text-slate-400">So far this period</dt>
                    <dd className="tabular-nums">{minorMoney(s.periodAmount, s.currency)}</dd>
                  </>
                ) : null}
                <dt className="text-slate-600 dark:text-slate-400">Card</dt>
                <dd>{s.paymentMethod ? `${s.paymentMethod.brand} ending ${s.paymentMethod.last4}` : "—"}</dd>
              </dl>
              {s.current ? (
                <div className="mt-4 border-t border-slate-200 pt-4 dark:border-slate-800">
                  <CancelSubscription subscriptionId={s.id} cancelAtPeriodEnd={s.cancelAtPeriodEnd} />
                </div>
              ) : null}
            </Card>
            {credits.has(s.id) ? (
              <ConsumerCredits
                auth={viewer.auth}
                subscription={s}
                credits={credits.get(s.id)!}
                product={several ? s.productName : undefined}
              />
            ) : null}
          </div>
        ))
      )}
    </div>
  );
}
