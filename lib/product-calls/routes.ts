import { defineRoute } from "@/lib/http/route";
import { KeyVerification, KeyVerifyRequest, MeterEvent, MeterEventCreate } from "@/lib/schemas/product-calls";
import { verifyKeyForProduct } from "./verify-key";
import { createMeterEvent } from "./meter-events";

// For providers that serve their API themselves: verify a subscriber's key, report metered usage.

export const productCallRoutes = [
  defineRoute({
    method: "POST",
    path: "/v1/keys/verify",
    summary: "Verify a subscriber's key for one of your products (counts as a call of the product)",
    tag: "Product calls",
    scope: "products:write",
    body: KeyVerifyRequest,
    response: { kind: "single", status: 200, schema: KeyVerification },
    handler: ({ auth, body, client }) => verifyKeyForProduct(auth, body, client),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/meter-events",
    summary: "Report a subscriber's usage of one of your products, rated and invoiced (idempotent by identifier)",
    tag: "Product calls",
    scope: "products:write",
    statuses: {
      402: "The subscription's prepaid credits cannot cover the event (INSUFFICIENT_CREDITS), or its spend cap is reached (SPEND_CAP_REACHED); nothing was recorded",
    },
    body: MeterEventCreate,
    response: { kind: "single", status: 201, schema: MeterEvent },
    handler: ({ auth, body }) => createMeterEvent(auth, body),
  }),
];
