import type { getPayoutAccount } from "@/lib/billing/payouts";
import { Badge, Card } from "@/components/ui/primitives";
import { PayoutOnboardingButton } from "./payout-onboarding-button";

// The provider's payout account on the Payouts page (issue 60): where onboarding at Stripe stands, what Stripe still
// requires, and the button that starts or continues it. Stripe's account.updated keeps the state current.

type PayoutAccount = Awaited<ReturnType<typeof getPayoutAccount>>;

type Stage = "none" | "pending" | "review" | "ready";

function stageOf(a: PayoutAccount): Stage {
  if (!a.accountId) return "none";
  if (a.chargesEnabled && a.payoutsEnabled && a.requirements.currentlyDue.length === 0) return "ready";
  if (!a.detailsSubmitted || a.requirements.currentlyDue.length) return "pending";
  return "review";
}

const STAGES: Record<Stage, { label: string; tone: "neutral" | "warning" | "info" | "success" }> = {
  none: { label: "Not set up", tone: "neutral" },
  pending: { label: "Onboarding pending", tone: "warning" },
  review: { label: "Being reviewed by Stripe", tone: "info" },
  ready: { label: "Ready", tone: "success" },
};

/** Stripe's requirement keys ("individual.verification.document", "external_account") in words. */
const requirement = (key: string) => key.replaceAll("_", " ").replaceAll(".", " › ");

const yesNo = (on: boolean, yes: string, no: string) => <Badge tone={on ? "success" : "warning"}>{on ? yes : no}</Badge>;

export function PayoutAccountCard({
  account,
  canOnboard,
  role,
  returned,
  expired,
}: {
  account: PayoutAccount;
  canOnboard: boolean;
  role: string;
  /** Back from Stripe's onboarding (?returned=1), or its link had expired (?refresh=1). */
  returned: boolean;
  expired: boolean;
}) {
  const stage = stageOf(account);
  const testProvider = account.provider !== "stripe";
  const due = account.requirements.currentlyDue;
  return (
    <Card
      title="Payout account"
      actions={
        <span data-testid="payout-status">
          <Badge tone={STAGES[stage].tone}>{STAGES[stage].label}</Badge>
        </span>
      }
    >
      <div className="space-y-4 text-sm">
        {returned && stage !== "none" ? (
          <p role="status" className="rounded-md bg-indigo-50 p-3 text-indigo-900 dark:bg-indigo-950/50 dark:text-indigo-100">
            {stage === "ready"
              ? "Welcome back: your payout account is ready."
              : "Welcome back. Stripe may take a few minutes to check what you sent; this page shows its answer."}
          </p>
        ) : null}
        {expired && stage !== "ready" ? (
          <p role="status" className="rounded-md bg-amber-50 p-3 text-amber-900 dark:bg-amber-950/50 dark:text-amber-100">
            Stripe&apos;s onboarding link expired. Continue onboarding for a fresh one.
          </p>
        ) : null}

        {stage === "none" ? (
          <div className="text-slate-600 dark:text-slate-400" data-testid="payout-none">
            <p className="font-medium text-slate-900 dark:text-slate-100">No payout account yet</p>
            <p className="mt-1">
              {testProvider
                ? "Set up payouts to receive what your customers pay. This deployment uses the test payment provider: the account is a test one, ready at once, and no money moves."
                : "Set up payouts to receive what your customers pay. Stripe asks for your business and bank details, then sends you back here."}
            </p>
          </div>
        ) : (
          <dl className="grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
            <dt className="text-slate-500 dark:text-slate-400">Account</dt>
            <dd className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <span className="break-all font-mono" data-testid="payout-account-id">
                {account.accountId}
              </span>
              {testProvider ? <Badge>test provider</Badge> : null}
            </dd>
            <dt className="text-slate-500 dark:text-slate-400">Charges</dt>
            <dd data-testid="payout-charges">{yesNo(account.chargesEnabled, "Enabled", "Not yet")}</dd>
            <dt className="text-slate-500 dark:text-slate-400">Payouts</dt>
            <dd data-testid="payout-payouts">{yesNo(account.payoutsEnabled, "Enabled", "Not yet")}</dd>
            <dt className="text-slate-500 dark:text-slate-400">Details</dt>
            <dd data-testid="payout-details">{yesNo(account.detailsSubmitted, "Submitted", "Not submitted")}</dd>
            <dt className="text-slate-500 dark:text-slate-400">Stripe still requires</dt>
            <dd data-testid="payout-requirements">
              {due.length ? (
                <ul className="list-inside list-disc space-y-1 break-words">
                  {due.map((key) => (
                    <li key={key}>{requirement(key)}</li>
                  ))}
                </ul>
              ) : (
                "Nothing"
              )}
              {account.requirements.disabledReason ? (
                <p className="mt-1 text-amber-700 dark:text-amber-300" data-testid="payout-disabled-reason">
                  Disabled: {requirement(account.requirements.disabledReason)}
                </p>
              ) : null}
            </dd>
          </dl>
        )}

        {stage !== "ready" ? (
          canOnboard ? (
            <PayoutOnboardingButton label={stage === "none" ? "Set up payouts" : "Continue onboarding"} />
          ) : (
            <p className="text-slate-600 dark:text-slate-400" data-testid="payout-ask-owner">
              Your role ({role}) cannot set up payouts: ask an owner or admin of this business.
            </p>
          )
        ) : null}
      </div>
    </Card>
  );
}
