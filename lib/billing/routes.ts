import { defineRoute } from "@/lib/http/route";
import { IdParams } from "@/lib/schemas/common";
import type { CollectionQuery } from "@/lib/http/collection-query";
import { Invoice, InvoiceLineParams, Subscription, SubscriptionCancel, SubscriptionCreate, SubscriptionUpdate, UpcomingQuery } from "@/lib/schemas/billing";
import { SUBSCRIPTION_COLLECTION, listSubscriptions, createSubscription, getSubscriptionOrThrow, updateSubscription, cancelSubscription, serializeSubscription } from "./subscriptions";
import { INVOICE_COLLECTION, listInvoices, getInvoice, upcomingInvoice, invoiceLineCsv } from "./invoices";

export const billingRoutes = [
  defineRoute({
    method: "GET", path: "/v1/subscriptions", summary: "List subscriptions", tag: "Billing", scope: "subscriptions:read",
    collection: SUBSCRIPTION_COLLECTION, response: { kind: "collection", schema: Subscription },
    handler: ({ auth, query }) => listSubscriptions(auth, query as CollectionQuery),
  }),
  defineRoute({
    method: "POST", path: "/v1/subscriptions", summary: "Subscribe a project to a price", tag: "Billing", scope: "subscriptions:write",
    body: SubscriptionCreate, response: { kind: "single", status: 201, schema: Subscription },
    handler: ({ auth, body }) => createSubscription(auth, body),
  }),
  defineRoute({
    method: "GET", path: "/v1/subscriptions/{id}", summary: "Retrieve a subscription", tag: "Billing", scope: "subscriptions:read",
    params: IdParams, response: { kind: "single", status: 200, schema: Subscription },
    handler: async ({ auth, params }) => serializeSubscription(await getSubscriptionOrThrow(auth, params.id)),
  }),
  defineRoute({
    method: "PATCH", path: "/v1/subscriptions/{id}", summary: "Change a subscription's price (at renewal), payment method, metadata or cancelAtPeriodEnd", tag: "Billing", scope: "subscriptions:write",
    params: IdParams, body: SubscriptionUpdate, response: { kind: "single", status: 200, schema: Subscription },
    handler: ({ auth, params, body }) => updateSubscription(auth, params.id, body),
  }),
  defineRoute({
    method: "POST", path: "/v1/subscriptions/{id}/cancel", summary: "Cancel a subscription now (final invoice) or at the period's end", tag: "Billing", scope: "subscriptions:write",
    params: IdParams, body: SubscriptionCancel, response: { kind: "single", status: 200, schema: Subscription },
    handler: ({ auth, params, body }) => cancelSubscription(auth, params.id, body.atPeriodEnd ?? false),
  }),
  defineRoute({
    method: "GET", path: "/v1/invoices", summary: "List invoices", tag: "Billing", scope: "invoices:read",
    collection: INVOICE_COLLECTION, response: { kind: "collection", schema: Invoice },
    handler: ({ auth, query }) => listInvoices(auth, query as CollectionQuery),
  }),
  defineRoute({
    method: "GET", path: "/v1/invoices/upcoming", summary: "The running period's invoice so far (not stored)", tag: "Billing", scope: "invoices:read",
    query: UpcomingQuery, response: { kind: "single", status: 200, schema: Invoice },
    handler: ({ auth, query }) => upcomingInvoice(auth, (query as { projectId?: string }).projectId),
  }),
  defineRoute({
    method: "GET", path: "/v1/invoices/{id}", summary: "Retrieve an invoice with its lines and payments", tag: "Billing", scope: "invoices:read",
    params: IdParams, response: { kind: "single", status: 200, schema: Invoice },
    handler: ({ auth, params }) => getInvoice(auth, params.id),
  }),
  defineRoute({
    method: "GET", path: "/v1/invoices/{id}/lines/{lineId}/usage", summary: "The usage events behind an invoice line, as CSV with each event's cost", tag: "Billing", scope: "invoices:read",
    params: InvoiceLineParams, response: { kind: "text", contentType: "text/csv; charset=utf-8", description: "CSV: one row per usage event; the 'total' row equals the line's exactAmount" },
    handler: ({ auth, params }) => invoiceLineCsv(auth, params.id, params.lineId),
  }),
];
