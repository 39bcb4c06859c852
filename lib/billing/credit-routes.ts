import { defineRoute } from "@/lib/http/route";
import { IdParams } from "@/lib/schemas/common";
import type { CollectionQuery } from "@/lib/http/collection-query";
import { CreditBalance, CreditGrantCreate, CreditLedgerEntry, CreditPurchase } from "@/lib/schemas/credits";
import { buyCredits, grantCredits, subscriptionCredits } from "./credits";
import { CREDIT_LEDGER_COLLECTION, CUSTOMER_CREDITS_COLLECTION, creditLedger, customerCredits } from "./credit-ledger";

// Prepaid credits (issue 39): the consumer's side under its subscription, the provider's under its customer.

const DECLINED = { 402: "The card was declined (CARD_DECLINED); declineCode says why. No credits were granted" };

export const creditRoutes = [
  defineRoute({
    method: "POST",
    path: "/v1/subscriptions/{id}/credits",
    summary: "Buy prepaid credits for a subscription with a card",
    tag: "Billing",
    scope: "subscriptions:write",
    statuses: DECLINED,
    params: IdParams,
    body: CreditPurchase,
    response: { kind: "single", status: 201, schema: CreditBalance },
    handler: ({ auth, params, body }) => buyCredits(auth, params.id, body),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/subscriptions/{id}/credits",
    summary: "A subscription's credit balance, reservations in flight, grants and spend cap",
    tag: "Billing",
    scope: "subscriptions:read",
    params: IdParams,
    response: { kind: "single", status: 200, schema: CreditBalance },
    handler: ({ auth, params }) => subscriptionCredits(auth, params.id),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/subscriptions/{id}/credit-ledger",
    summary: "Every grant, purchase, burn, expiry and adjustment of a subscription's credits, newest first",
    tag: "Billing",
    scope: "subscriptions:read",
    params: IdParams,
    collection: CREDIT_LEDGER_COLLECTION,
    response: { kind: "collection", schema: CreditLedgerEntry },
    handler: ({ auth, params, query }) => creditLedger(auth, params.id, query as CollectionQuery),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/customers/{id}/credits",
    summary: "Grant credits to a customer's subscription (promotional, support), optionally expiring",
    tag: "Customers",
    scope: "subscriptions:write",
    params: IdParams,
    body: CreditGrantCreate,
    response: { kind: "single", status: 201, schema: CreditBalance },
    handler: ({ auth, params, body }) => grantCredits(auth, params.id, body),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/customers/{id}/credits",
    summary: "A customer's credit balances, one per subscription to your products",
    tag: "Customers",
    scope: "subscriptions:read",
    params: IdParams,
    collection: CUSTOMER_CREDITS_COLLECTION,
    response: { kind: "collection", schema: CreditBalance },
    handler: ({ auth, params, query }) => customerCredits(auth, params.id, query as CollectionQuery),
  }),
];
