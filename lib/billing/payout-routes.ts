import { defineRoute } from "@/lib/http/route";
import type { CollectionQuery } from "@/lib/http/collection-query";
import { Earning, EarningsMonthQuery, EarningsSummary, PayoutAccount } from "@/lib/schemas/payouts";
import { EARNINGS_COLLECTION, createPayoutAccount, earningsStatementCsv, earningsSummary, getPayoutAccount, listEarnings } from "./payouts";

// Providers get paid (issue 60): the payout account (Stripe Connect onboarding) and the earnings it receives.

export const payoutRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/payout-account",
    summary: "Your payout account: whether Stripe lets it take charges and pay out, and what it still requires",
    tag: "Payouts",
    scope: "invoices:read",
    response: { kind: "single", status: 200, schema: PayoutAccount },
    handler: ({ auth }) => getPayoutAccount(auth),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/payout-account",
    summary: "Start or continue payout onboarding: creates your Stripe Express account once and answers its onboarding link",
    tag: "Payouts",
    scope: "invoices:write",
    response: { kind: "single", status: 201, schema: PayoutAccount },
    handler: ({ auth, baseUrl }) => createPayoutAccount(auth, baseUrl),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/earnings",
    summary: "What your customers paid you, per paid invoice: gross, the platform's fee, refunds, net and the transfer",
    tag: "Payouts",
    scope: "invoices:read",
    collection: EARNINGS_COLLECTION,
    response: { kind: "collection", schema: Earning },
    handler: ({ auth, query }) => listEarnings(auth, query as CollectionQuery),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/earnings/summary",
    summary: "A month's earnings summed per currency",
    tag: "Payouts",
    scope: "invoices:read",
    query: EarningsMonthQuery,
    response: { kind: "single", status: 200, schema: EarningsSummary },
    handler: ({ auth, query }) => earningsSummary(auth, (query as { month?: string }).month),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/earnings/statement",
    summary: "A month's statement as CSV: one row per paid invoice, then a total per currency",
    tag: "Payouts",
    scope: "invoices:read",
    query: EarningsMonthQuery,
    response: {
      kind: "text",
      contentType: "text/csv; charset=utf-8",
      description: "CSV: one row per paid invoice, then a total row per currency",
    },
    handler: ({ auth, query }) => earningsStatementCsv(auth, (query as { month?: string }).month),
  }),
];
