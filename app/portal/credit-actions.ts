"use server";
// The portal's prepaid credits and spending limits (issue 39): a consumer buys credits with its subscription's
// card, sets auto top-up and a spend cap; a provider grants credits to a customer. Each runs the same domain
// function as the API (lib/billing/credits.ts, updateSubscription) as the signed-in user, with the API's schema,
// so a refusal (a declined card, an amount out of range) comes back in the API's words, on the field it is about.
import { AutoRechargeInput, CreditGrantCreate, CreditPurchase, SpendCapInput } from "@/lib/schemas/credits";
import { buyCredits, grantCredits } from "@/lib/billing/credits";
import { updateSubscription } from "@/lib/billing/subscriptions";
import { invalidField } from "@/lib/http/errors";
import { runAction } from "@/lib/portal/run-action";

/** A typed amount as the API's number: empty is missing (the schema says "This field is required."). */
function amount(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim().replace(/,/g, "");
  return text === "" ? undefined : Number(text);
}

/** Thresholds typed as "50, 80, 100": numbers; empty keeps the API's default. */
function thresholds(value: unknown): number[] | undefined {
  const text = typeof value === "string" ? value.trim() : "";
  if (!text) return undefined;
  return text
    .split(/[\s,;%]+/)
    .filter(Boolean)
    .map(Number);
}

const pathsOf = (subscriptionId: string) => ["/portal/subscriptions", `/portal/subscriptions/${subscriptionId}`];

/** "Buy credits": charges the subscription's card; a decline (CARD_DECLINED) grants nothing. */
export async function buyCreditsAction(subscriptionId: string, input: { amount?: unknown }) {
  return runAction(
    "subscriptions:write",
    async (ctx) => {
      const summary = await buyCredits(ctx.auth, String(subscriptionId), CreditPurchase.parse({ amount: amount(input?.amount) }));
      return { balance: summary.balance, currency: summary.currency };
    },
    pathsOf(subscriptionId),
  );
}

/** Auto top-up on (below, amount, monthly limit) or, with null, off. */
export async function setAutoRechargeAction(
  subscriptionId: string,
  input: { below?: unknown; amount?: unknown; monthlyLimit?: unknown } | null,
) {
  return runAction(
    "subscriptions:write",
    async (ctx) => {
      // The inner schema, so that a problem is named by the form's own field (below, not autoRecharge.below).
      const autoRecharge = input
        ? AutoRechargeInput.parse({ below: amount(input.below), amount: amount(input.amount), monthlyLimit: amount(input.monthlyLimit) })
        : null;
      const sub = await updateSubscription(ctx.auth, String(subscriptionId), { autoRecharge });
      return { autoRecharge: sub.autoRecharge };
    },
    pathsOf(subscriptionId),
  );
}

/** The spend cap of each billing period (amount, block or notify, alert thresholds) or, with null, none. */
export async function setSpendCapAction(
  subscriptionId: string,
  input: { amount?: unknown; action?: unknown; thresholds?: unknown } | null,
) {
  return runAction(
    "subscriptions:write",
    async (ctx) => {
      const spendCap = input
        ? SpendCapInput.parse({ amount: amount(input.amount), action: input.action, thresholds: thresholds(input.thresholds) })
        : null;
      const sub = await updateSubscription(ctx.auth, String(subscriptionId), { spendCap });
      return { spendCap: sub.spendCap };
    },
    pathsOf(subscriptionId),
  );
}

/**
 * The provider's "Grant credits" to a customer's subscription: an amount, a note both sides see, and optionally
 * the day (UTC) at whose end what is left lapses.
 */
export async function grantCreditsAction(
  customerId: string,
  input: { subscription?: unknown; amount?: unknown; expiresAt?: unknown; note?: unknown },
) {
  return runAction(
    "subscriptions:write",
    async (ctx) => {
      // A date field's value (YYYY-MM-DD); what is left lapses at the end of that day, UTC.
      const day = typeof input?.expiresAt === "string" ? input.expiresAt.trim() : "";
      if (day && (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))))
        throw invalidField("expiresAt", "Enter a date, such as 2027-01-31.");
      const body = CreditGrantCreate.parse({
        subscription: typeof input?.subscription === "string" ? input.subscription : "",
        amount: amount(input?.amount),
        ...(day ? { expiresAt: `${day}T23:59:59.999Z` } : {}),
        note: typeof input?.note === "string" ? input.note.trim() : "",
      });
      const summary = await grantCredits(ctx.auth, String(customerId), body);
      return { balance: summary.balance, currency: summary.currency };
    },
    ["/portal/customers", `/portal/customers/${customerId}`],
  );
}
