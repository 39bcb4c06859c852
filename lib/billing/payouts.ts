import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import type { AuthContext } from "@/lib/http/auth-context";
import { listCollection } from "@/lib/http/list-collection";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import type { Invoice as InvoiceRow } from "@/generated/prisma-sqlite";
import { minorToDecimal } from "./money";
import { paymentProviderName } from "./payment-provider";
import { feeAfterRefund } from "./payment-parties";

// Providers get paid (issue 60). The payout account is the provider's Stripe Express account (Connect): made by
// POST /v1/payout-account, which answers Stripe's onboarding link; Stripe's account.updated keeps its state (charges,
// payouts, what it still requires). Earnings are the provider's paid invoices: gross, the platform's fee, refunds,
// net and Stripe's transfer, so fee + net = charged − refunded for each, to the minor unit.
// With the test provider (PAYMENT_PROVIDER=test) the account is a test one, ready at once: test mode is free to try.

type StripeRow = NonNullable<Awaited<ReturnType<typeof db.stripeAccount.findUnique>>>;

function view(row: StripeRow | null) {
  const requirements = (row?.requirements as { currentlyDue?: string[]; disabledReason?: string | null } | null) ?? null;
  return {
    object: "payout_account" as const,
    provider: paymentProviderName(),
    accountId: row?.accountId ?? null,
    chargesEnabled: row?.chargesEnabled ?? false,
    payoutsEnabled: row?.payoutsEnabled ?? false,
    detailsSubmitted: row?.detailsSubmitted ?? false,
    requirements: { currentlyDue: requirements?.currentlyDue ?? [], disabledReason: requirements?.disabledReason ?? null },
    onboardingUrl: null as string | null,
  };
}

export async function getPayoutAccount(auth: AuthContext) {
  return view(await db.stripeAccount.findUnique({ where: { businessId: auth.businessId } }));
}

/** POST /v1/payout-account: the Express account (made once) and a fresh onboarding link to Stripe. */
export async function createPayoutAccount(auth: AuthContext, baseUrl: string) {
  const t = now();
  const existing = await db.stripeAccount.findUnique({ where: { businessId: auth.businessId } });
  if (paymentProviderName() !== "stripe") {
    // A test account, onboarded at once: no money moves with the test provider.
    if (existing?.accountId) return view(existing);
    const ready = {
      accountId: `acct_test_${auth.businessId.slice(4)}`,
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true,
    };
    const row = await db.stripeAccount.upsert({
      where: { businessId: auth.businessId },
      create: { businessId: auth.businessId, ...ready, createdAt: t, updatedAt: t },
      update: { ...ready, updatedAt: t },
    });
    return view(row);
  }
  const { stripeClient } = await import("./stripe/stripe-client");
  const stripe = await stripeClient();
  let accountId = existing?.accountId ?? null;
  if (!accountId) {
    const account = await stripe.accounts.create(
      {
        type: "express",
        capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
        metadata: { business_id: auth.businessId },
      },
      { idempotencyKey: `account-${auth.businessId}` },
    );
    accountId = account.id;
    await db.stripeAccount.upsert({
      where: { businessId: auth.businessId },
      create: {
        businessId: auth.businessId,
        accountId,
        requirements: { currentlyDue: account.requirements?.currently_due ?? [] },
        createdAt: t,
        updatedAt: t,
      },
      update: { accountId, requirements: { currentlyDue: account.requirements?.currently_due ?? [] }, updatedAt: t },
    });
  }
  const link = await stripe.accountLinks.create({
    account: accountId,
    type: "account_onboarding",
    refresh_url: `${baseUrl}/portal/payouts?refresh=1`,
    return_url: `${baseUrl}/portal/payouts?returned=1`,
  });
  return { ...(await getPayoutAccount(auth)), onboardingUrl: link.url };
}

export const EARNINGS_COLLECTION: CollectionSpec = {
  filters: { paidAt: { type: "date" }, productId: { type: "string" }, currency: { type: "string" } },
  sortable: ["paidAt", "createdAt"],
  defaultSort: "-paidAt",
  fields: [],
};

const earningsScope = (auth: AuthContext) => ({
  providerId: auth.businessId,
  environment: auth.environment,
  status: "paid",
  // A business's payments for its own product are not earnings from a customer.
  NOT: { businessId: auth.businessId },
});

/** One paid invoice as the provider's earning: gross charged, the platform's fee, refunds, net and the transfer. */
async function earningsOf(invoices: InvoiceRow[]) {
  const payments = await db.payment.findMany({ where: { invoiceId: { in: invoices.map((i) => i.id) }, status: "succeeded" } });
  return invoices.map((invoice) => {
    const own = payments.filter((p) => p.invoiceId === invoice.id);
    const gross = own.reduce((n, p) => n + p.amount, 0);
    // A refund gives the platform's fee back in proportion (refund_application_fee): the fee kept.
    const fee = own.reduce((n, p) => n + feeAfterRefund(p.applicationFee ?? 0, p.amount, p.amountRefunded), 0);
    const refunded = own.reduce((n, p) => n + p.amountRefunded, 0);
    const net = gross - refunded - fee;
    const money = (minor: number) => minorToDecimal(BigInt(minor), invoice.currency);
    return {
      id: invoice.id,
      object: "earning" as const,
      invoiceId: invoice.id,
      number: invoice.number,
      customerId: invoice.businessId,
      productId: invoice.productId,
      subscriptionId: invoice.subscriptionId,
      currency: invoice.currency,
      gross,
      platformFee: fee,
      refunded,
      net,
      grossDecimal: money(gross),
      platformFeeDecimal: money(fee),
      refundedDecimal: money(refunded),
      netDecimal: money(net),
      transferIds: own.map((p) => p.transferId).filter((t): t is string => !!t),
      disputed: own.some((p) => p.disputed),
      paidAt: invoice.paidAt?.toISOString() ?? null,
    };
  });
}

export async function listEarnings(auth: AuthContext, query: CollectionQuery) {
  const page = await listCollection({
    spec: EARNINGS_COLLECTION,
    query,
    baseWhere: earningsScope(auth),
    from: db.invoice,
    serialize: (row: InvoiceRow) => row as unknown as Record<string, unknown>,
  });
  return { data: await earningsOf(page.data as unknown as InvoiceRow[]), pagination: page.pagination };
}

/** The month's bounds; `month` is YYYY-MM, checked by the route's schema (EarningsMonthQuery). */
function monthRange(month: string | undefined) {
  const m = month ?? now().toISOString().slice(0, 7);
  const [y, mo] = m.split("-").map(Number);
  return { month: m, from: new Date(Date.UTC(y, mo - 1, 1)), to: new Date(Date.UTC(y, mo, 1)) };
}

async function monthEarnings(auth: AuthContext, month: string | undefined) {
  const range = monthRange(month);
  const invoices = await db.invoice.findMany({
    where: { ...earningsScope(auth), paidAt: { gte: range.from, lt: range.to } },
    orderBy: [{ paidAt: "asc" }, { id: "asc" }],
  });
  return { ...range, rows: await earningsOf(invoices) };
}

/** Earnings summed per currency, in minor units and as decimals. */
function totalsByCurrency(rows: Awaited<ReturnType<typeof earningsOf>>) {
  const byCurrency = new Map<
    string,
    { currency: string; invoices: number; gross: number; platformFee: number; refunded: number; net: number }
  >();
  for (const r of rows) {
    const sum = byCurrency.get(r.currency) ?? { currency: r.currency, invoices: 0, gross: 0, platformFee: 0, refunded: 0, net: 0 };
    sum.invoices += 1;
    sum.gross += r.gross;
    sum.platformFee += r.platformFee;
    sum.refunded += r.refunded;
    sum.net += r.net;
    byCurrency.set(r.currency, sum);
  }
  return [...byCurrency.values()].map((s) => ({
    ...s,
    netDecimal: minorToDecimal(BigInt(s.net), s.currency),
    grossDecimal: minorToDecimal(BigInt(s.gross), s.currency),
  }));
}

/** GET /v1/earnings/summary?month=YYYY-MM: the month's paid invoices summed per currency. */
export async function earningsSummary(auth: AuthContext, month?: string) {
  const { month: m, rows } = await monthEarnings(auth, month);
  return { object: "earnings_summary" as const, month: m, totals: totalsByCurrency(rows) };
}

/** GET /v1/earnings/statement?month=YYYY-MM: the month's statement as CSV, one row per paid invoice and a total per currency. */
export async function earningsStatementCsv(auth: AuthContext, month?: string): Promise<string> {
  const { rows } = await monthEarnings(auth, month);
  const header = "invoice_id,number,customer_id,product_id,paid_at,currency,gross,platform_fee,refunded,net,transfers";
  const lines = rows.map((r) =>
    [
      r.invoiceId,
      r.number ?? "",
      r.customerId,
      r.productId,
      r.paidAt ?? "",
      r.currency,
      r.grossDecimal,
      r.platformFeeDecimal,
      r.refundedDecimal,
      r.netDecimal,
      r.transferIds.join(" "),
    ].join(","),
  );
  const totals = totalsByCurrency(rows).map((t) =>
    [
      "total",
      "",
      "",
      "",
      "",
      t.currency,
      t.grossDecimal,
      minorToDecimal(BigInt(t.platformFee), t.currency),
      minorToDecimal(BigInt(t.refunded), t.currency),
      t.netDecimal,
      "",
    ].join(","),
  );
  return [header, ...lines, ...totals].join("\n") + "\n";
}
