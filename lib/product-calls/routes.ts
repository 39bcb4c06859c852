import { defineRoute } from "@/lib/http/route";
import { IdParams } from "@/lib/schemas/common";
import {
  KeyVerification,
  KeyVerifyRequest,
  MeterEvent,
  MeterEventAmend,
  MeterEventBackfill,
  MeterEventBackfillResult,
  MeterEventCreate,
  MeterEventVoid,
} from "@/lib/schemas/product-calls";
import { verifyKeyForProduct } from "./verify-key";
import { createMeterEvent } from "./meter-events";
import { amendMeterEvent, backfillMeterEvents, voidMeterEvent } from "./meter-corrections";

const MONEY_REFUSED = {
  402: "The subscription's prepaid credits cannot cover the event (INSUFFICIENT_CREDITS), or its spend cap is reached (SPEND_CAP_REACHED); nothing was recorded",
};
const INVOICED = { 409: "The event's period is invoiced (USAGE_INVOICED, naming the invoice), or the event is itself a correction" };

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
    statuses: MONEY_REFUSED,
    body: MeterEventCreate,
    response: { kind: "single", status: 201, schema: MeterEvent },
    handler: ({ auth, body }) => createMeterEvent(auth, body),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/meter-events/backfill",
    summary: "Report up to 1,000 meter events at once (late usage of the open period), each answered on its own",
    tag: "Product calls",
    scope: "products:write",
    body: MeterEventBackfill,
    response: { kind: "single", status: 200, schema: MeterEventBackfillResult },
    handler: ({ auth, body }) => backfillMeterEvents(auth, body),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/meter-events/{id}/amend",
    summary: "Correct a meter event of the open period to another quantity (audited; the original is kept)",
    tag: "Product calls",
    scope: "products:write",
    statuses: { ...MONEY_REFUSED, ...INVOICED },
    params: IdParams,
    body: MeterEventAmend,
    response: { kind: "single", status: 201, schema: MeterEvent },
    handler: ({ auth, params, body }) => amendMeterEvent(auth, params.id, body),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/meter-events/{id}/void",
    summary: "Void a meter event of the open period (audited; the original is kept)",
    tag: "Product calls",
    scope: "products:write",
    statuses: INVOICED,
    params: IdParams,
    body: MeterEventVoid,
    response: { kind: "single", status: 201, schema: MeterEvent },
    handler: ({ auth, params, body }) => voidMeterEvent(auth, params.id, body),
  }),
];
