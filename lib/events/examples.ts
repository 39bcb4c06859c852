import { EVENT_TYPES } from "./event-types";

// What a receiver gets for each event type: the payload's envelope with an illustrative `data`.

const DATA: Record<string, Record<string, unknown>> = {
  product: {
    object: "product",
    id: "prod_01JD2Y7X3Q9W6E8R4T5Y7U9I0P",
    name: "Weather API",
    type: "API",
    isActive: true,
    environment: "test",
  },
  subscription: {
    object: "subscription",
    id: "sub_01JD2Y7X3Q9W6E8R4T5Y7U9I0P",
    projectId: "proj_01JD2Y7X3Q9W6E8R4T5Y7U9I0P",
    productId: "prod_01JD2Y7X3Q9W6E8R4T5Y7U9I0P",
    priceId: "price_01JD2Y7X3Q9W6E8R4T5Y7U9I0P",
    status: "active",
    currentPeriodStart: "2026-11-01T00:00:00.000Z",
    currentPeriodEnd: "2026-12-01T00:00:00.000Z",
    cancelAtPeriodEnd: false,
    paymentMethod: { type: "card", brand: "visa", last4: "4242" },
  },
  usage: { projectId: "proj_01JD2Y7X3Q9W6E8R4T5Y7U9I0P", period: "2026-11", threshold: 80, used: 800, limit: 1000, percentage: 80 },
  resource: { object: "webhook", id: "wh_01JD2Y7X3Q9W6E8R4T5Y7U9I0P", url: "https://example.com/hooks", isActive: true },
  payment: {
    object: "payment",
    id: "pay_01JD2Y7X3Q9W6E8R4T5Y7U9I0P",
    invoiceId: "inv_01JD2Y7X3Q9W6E8R4T5Y7U9I0P",
    subscriptionId: "sub_01JD2Y7X3Q9W6E8R4T5Y7U9I0P",
    amount: 4900,
    amountDecimal: "49.00",
    currency: "USD",
    status: "succeeded",
    attempt: 1,
    failureCode: null,
    failureMessage: null,
    nextPaymentAttempt: null,
  },
  api: { apiKey: "key_01JD2Y7X3Q9W6E8R4T5Y7U9I0P", projectId: "proj_01JD2Y7X3Q9W6E8R4T5Y7U9I0P", limit: "burst", max: 100 },
  enrichment: { id: "enr_01JD2Y7X3Q9W6E8R4T5Y7U9I0P", status: "completed" },
};

export function examplePayload(type: string) {
  const createdAt = "2026-11-22T12:00:00.000Z";
  return {
    id: "evt_01JD2Y7X3Q9W6E8R4T5Y7U9I0P",
    type,
    createdAt,
    timestamp: createdAt,
    apiVersion: "v1",
    data: DATA[type.split(".")[0]] ?? {},
    ...(type.endsWith(".updated") ? { previousAttributes: { isActive: false } } : {}),
  };
}

export const EXAMPLES = EVENT_TYPES.map((type) => ({ type, payload: examplePayload(type) }));
