import { z } from "zod";

// Every error code the API answers with, for the docs page that error envelopes link to (/docs/errors#CODE),
// and for the OpenAPI document: `fields` names the members a code adds to the error object, so the document's
// Error schema is built from this list and a new field cannot be sent without being declared.

export interface ErrorDoc {
  code: string;
  status: number;
  type: string;
  meaning: string;
  fix: string;
  /** Members of the error object beyond type, code, message, field, suggestion and documentation. */
  fields?: Record<string, z.ZodType>;
}

const retryAfter = z.number().int().meta({ description: "Seconds to wait before retrying" });

export const ERROR_CATALOG: ErrorDoc[] = [
  {
    code: "MISSING_REQUIRED_FIELD",
    status: 400,
    type: "validation_error",
    meaning: "A required field is absent; `field` names it.",
    fix: "Send the field.",
  },
  {
    code: "INVALID_TYPE",
    status: 400,
    type: "validation_error",
    meaning: "The product `type` is not one of SaaS, API, Data, Headless.",
    fix: "Use a value from `suggestion`.",
  },
  {
    code: "INVALID_FIELD",
    status: 400,
    type: "validation_error",
    meaning: "A body field has the wrong type or format, or is not a field of this resource.",
    fix: "Correct or remove the field named in `field`.",
  },
  {
    code: "INVALID_PARAMETER",
    status: 400,
    type: "validation_error",
    meaning: "A query, path or header parameter is out of range or malformed (limit outside 1..100, cursor with offset, version mismatch).",
    fix: "Correct the parameter named in `field`.",
  },
  {
    code: "INVALID_FILTER",
    status: 400,
    type: "validation_error",
    meaning: "A query parameter filters on a field the collection does not have.",
    fix: "Filter on a field listed in `suggestion`.",
  },
  {
    code: "INVALID_CURSOR",
    status: 400,
    type: "validation_error",
    meaning: "The cursor was altered, or belongs to another sort order.",
    fix: "Pass `pagination.nextCursor` unchanged, with the same `sort`.",
  },
  {
    code: "INVALID_JSON",
    status: 400,
    type: "validation_error",
    meaning: "The body is not JSON, or Content-Type is not application/json.",
    fix: "Send a JSON object with `Content-Type: application/json`.",
  },
  { code: "PAYLOAD_TOO_LARGE", status: 413, type: "validation_error", meaning: "The body is over 1 MB.", fix: "Send less per request." },
  {
    code: "INVALID_API_KEY",
    status: 401,
    type: "authentication_error",
    meaning: "No API key, a malformed one, or one we do not know.",
    fix: "Send `Authorization: Bearer sk_test_...` with a key from the portal.",
  },
  {
    code: "API_KEY_EXPIRED",
    status: 401,
    type: "authentication_error",
    meaning: "The key passed its `expiresAt`.",
    fix: "Create or rotate a key.",
  },
  { code: "API_KEY_REVOKED", status: 401, type: "authentication_error", meaning: "The key was revoked.", fix: "Use another key." },
  {
    code: "INVALID_ACCESS_TOKEN",
    status: 401,
    type: "authentication_error",
    meaning: "An OAuth access token (`oat_...`) we do not know.",
    fix: "Run the authorization-code flow again (see the README's OAuth section).",
  },
  {
    code: "ACCESS_TOKEN_EXPIRED",
    status: 401,
    type: "authentication_error",
    meaning: "The OAuth access token is older than its `expires_in` (one hour).",
    fix: "Exchange the refresh token at `POST /oauth/token` for a new one.",
  },
  {
    code: "ACCESS_TOKEN_REVOKED",
    status: 401,
    type: "authentication_error",
    meaning: "The OAuth access token, or the user's authorization of the app, was revoked.",
    fix: "Ask the user to authorize the app again.",
  },
  {
    code: "TOKEN_AUDIENCE_MISMATCH",
    status: 401,
    type: "authentication_error",
    meaning:
      "The OAuth access token is bound to one product's MCP server (RFC 8707 resource) and was used elsewhere: on the /v1 API, another product's gateway, or another MCP server.",
    fix: "Use the token only with the MCP server it was issued for and that product's /gw/{slug}/…, or authorize again with the right resource.",
  },
  {
    code: "INVALID_ADMIN_TOKEN",
    status: 401,
    type: "authentication_error",
    meaning: "An operator endpoint (the test clock) was called without the deployment's administrator token.",
    fix: "Send `Authorization: Bearer <PLATFORM_ADMIN_TOKEN>`.",
  },
  {
    code: "INSUFFICIENT_SCOPE",
    status: 403,
    type: "authorization_error",
    meaning: "The key lacks the scope the route needs (`requiredScope`).",
    fix: "Use a key with that scope.",
    fields: { requiredScope: z.string().meta({ description: "The scope that was missing" }) },
  },
  {
    code: "IP_NOT_ALLOWED",
    status: 403,
    type: "authorization_error",
    meaning: "The key's IP allow-list does not include the caller.",
    fix: "Call from an allowed address or widen the list.",
  },
  {
    code: "REFERRER_NOT_ALLOWED",
    status: 403,
    type: "authorization_error",
    meaning: "The key's referrer allow-list does not include the caller's Referer.",
    fix: "Call from an allowed site.",
  },
  {
    code: "RESOURCE_NOT_FOUND",
    status: 404,
    type: "not_found_error",
    meaning: "No such resource in this business and environment.",
    fix: "Check the id, and that test and live keys are not mixed.",
  },
  { code: "ROUTE_NOT_FOUND", status: 404, type: "not_found_error", meaning: "No route has this path.", fix: "See the API reference." },
  {
    code: "METHOD_NOT_ALLOWED",
    status: 405,
    type: "validation_error",
    meaning: "The path exists but not with this method; `Allow` lists the methods.",
    fix: "Use a listed method.",
  },
  {
    code: "ALREADY_EXISTS",
    status: 409,
    type: "conflict_error",
    meaning: "A resource with these unique values exists.",
    fix: "Use the existing one or change the values.",
  },
  {
    code: "STATE_CONFLICT",
    status: 409,
    type: "conflict_error",
    meaning: "The resource is not in a state that allows this.",
    fix: "Read its state and choose an allowed action.",
    fields: {
      currentState: z.string().meta({ description: "The resource's state (or why the action cannot run)" }),
      allowed: z.array(z.string()).meta({ description: "States (or transitions) that would allow the action" }),
      requested: z.string().meta({ description: "The state transition asked for" }),
      referencedBy: z.array(z.string()).meta({ description: "Ids of the resources that still reference this one" }),
    },
  },
  {
    code: "IDEMPOTENCY_KEY_IN_USE",
    status: 409,
    type: "conflict_error",
    meaning: "A request with this Idempotency-Key is still running.",
    fix: "Retry after it finishes.",
  },
  {
    code: "IDEMPOTENCY_RESULT_LOST",
    status: 409,
    type: "conflict_error",
    meaning:
      "The request with this Idempotency-Key was carried out, but the server stopped before storing its response; it is not run again.",
    fix: "Read the resource to see the result; use a new key for a new request.",
  },
  {
    code: "IDEMPOTENCY_KEY_REUSED",
    status: 422,
    type: "idempotency_error",
    meaning: "The Idempotency-Key was used with another method, path or body in the last 24 hours.",
    fix: "Use a new key for a new request.",
  },
  {
    code: "USAGE_INVOICED",
    status: 409,
    type: "conflict_error",
    meaning:
      "A correction (amend or void) of usage whose period is already on a finalised invoice, which never changes; `invoiceId` names it.",
    fix: "Give the customer credits instead (`POST /v1/customers/{id}/credits`).",
    fields: { invoiceId: z.string().nullable().meta({ description: "The finalised invoice the usage is on" }) },
  },
  {
    code: "INSUFFICIENT_CREDITS",
    status: 402,
    type: "authorization_error",
    meaning:
      "The subscription's price is prepaid and its credits cannot cover the call, so it was refused before it ran (nothing was spent). `balance` is what is left and `required` what the call needs.",
    fix: "Buy credits (`POST /v1/subscriptions/{id}/credits`, or the subscription's page in the portal), or turn on auto top-up.",
    fields: {
      balance: z.string().meta({ description: "Credits left, exact decimal in the major unit" }),
      required: z.string().meta({ description: "What the call reserves" }),
      currency: z.string(),
      subscriptionId: z.string(),
      topUp: z.string().meta({ description: "Where to buy credits" }),
    },
  },
  {
    code: "SPEND_CAP_REACHED",
    status: 402,
    type: "authorization_error",
    meaning:
      "The subscription's monthly spend cap (action block) is reached: calls are refused until the next period or a raised cap. `cap` and `spent` say where it stands.",
    fix: "Raise or remove the cap (`PATCH /v1/subscriptions/{id}` with `spendCap`), or wait for `resets`.",
    fields: {
      cap: z.string(),
      spent: z.string(),
      currency: z.string(),
      subscriptionId: z.string(),
      resets: z.string().meta({ description: "When the period, and the cap's count, renews (ISO 8601)" }),
    },
  },
  {
    code: "CARD_DECLINED",
    status: 402,
    type: "card_error",
    meaning:
      "The card was declined where it was given (subscribing, or replacing a subscription's card); `declineCode` says why (generic_decline, insufficient_funds, lost_card, stolen_card, expired_card, incorrect_cvc, processing_error, incorrect_number, card_velocity_exceeded, fraudulent). Nothing was created or changed.",
    fix: "Use another card; after processing_error the same card may be tried again.",
    fields: { declineCode: z.string().meta({ description: "Why the card was declined, as Stripe's decline_code" }) },
  },
  {
    code: "INVALID_SIGNATURE",
    status: 400,
    type: "authentication_error",
    meaning:
      "A delivery to `/webhooks/stripe` whose `Stripe-Signature` does not verify its body with STRIPE_WEBHOOK_SECRET, or is older than 300 s. Nothing was changed.",
    fix: "Set STRIPE_WEBHOOK_SECRET to this endpoint's signing secret (whsec_…; `stripe listen` prints its own).",
  },
  {
    code: "RAW_CARD_NOT_ACCEPTED",
    status: 400,
    type: "validation_error",
    meaning:
      "A card number was sent to a deployment that takes payments through Stripe (PAYMENT_PROVIDER=stripe): card data never reaches this server (PCI DSS). `field` names where it was sent.",
    fix: 'Collect the card with Stripe.js (the Payment Element, or `POST /v1/payment-methods/setup` for its client secret) and send the PaymentMethod id it returns: `"paymentMethod": "pm_…"`.',
  },
  {
    code: "PROVIDER_NOT_PAYABLE",
    status: 409,
    type: "conflict_error",
    meaning:
      "The product's provider cannot be paid yet: its Stripe account (Connect) has not finished onboarding, so a live subscription to a paid price is refused.",
    fix: "Ask the provider to finish its payout onboarding (`POST /v1/payout-account`), or subscribe in test mode.",
  },
  {
    code: "RATE_LIMIT_EXCEEDED",
    status: 429,
    type: "rate_limit_error",
    meaning: "Too many requests for this key; see `retryAfter`.",
    fix: "Wait `Retry-After` seconds.",
    fields: {
      retryAfter,
      limit: z.number().int().meta({ description: "Requests allowed in the window" }),
      window: z.number().int().meta({ description: "The window, in seconds" }),
      policy: z.string().meta({ description: "The policy that refused (burst, hour, day, concurrent), as named in RateLimit-Policy" }),
    },
  },
  {
    code: "QUOTA_EXCEEDED",
    status: 429,
    type: "rate_limit_error",
    meaning: "The project's monthly quota is used up (free plan).",
    fix: "Upgrade the plan or wait for the next period.",
    fields: {
      retryAfter,
      limit: z.number().int().meta({ description: "Requests allowed per period" }),
      period: z.string().meta({ description: "The quota's period (month)" }),
      resets: z.string().meta({ description: "ISO 8601 date-time at which the quota starts afresh", format: "date-time" }),
    },
  },
  {
    code: "PRODUCT_NOT_SUBSCRIBED",
    status: 403,
    type: "authorization_error",
    meaning: "The key's project has no subscription to the product called, or the key is limited (by `call:` scopes) to other products.",
    fix: "Subscribe the key's project to the product (POST /v1/subscriptions), or use a key whose scopes include `call:<product id>` or `call:*`.",
  },
  {
    code: "SUBSCRIPTION_INACTIVE",
    status: 403,
    type: "authorization_error",
    meaning: "The subscription to the product is canceled, or has ended at the end of its period.",
    fix: "Subscribe again.",
  },
  {
    code: "SUBSCRIPTION_UNPAID",
    status: 402,
    type: "authorization_error",
    meaning:
      "Every charge of the subscription's invoice failed (the dunning retries, PAYMENT_RETRY_DAYS), so its product calls are refused until the invoice is paid. While retries remain the subscription is past_due and still served.",
    fix: "Pay the invoice named: give the subscription another card (PATCH /v1/subscriptions/{id} paymentMethod, or POST /v1/payment-methods), which charges it at once, or pay at `payUrl`.",
    fields: {
      invoice: z.string().meta({ description: "The open invoice to pay" }),
      amountDue: z.number().int().meta({ description: "What is owed, in the currency's minor unit" }),
      currency: z.string().meta({ description: "ISO 4217 currency code" }),
      payUrl: z.string().meta({ description: "The portal page where the consumer pays it" }),
    },
  },
  {
    code: "VERSION_SUNSET",
    status: 410,
    type: "version_sunset",
    meaning: "The API version in the path was sunset; `currentVersion` and `migration` say where to go.",
    fix: "Move to the current version.",
    fields: {
      migration: z.string().meta({ description: "Link to the migration guide" }),
      currentVersion: z.string().meta({ description: "The version to move to" }),
    },
  },
  {
    code: "INTERNAL_ERROR",
    status: 500,
    type: "server_error",
    meaning: "Something failed on our side.",
    fix: "Retry; if it persists, quote the request id.",
  },
  {
    code: "SERVICE_UNAVAILABLE",
    status: 503,
    type: "server_error",
    meaning: "A dependency is temporarily unavailable.",
    fix: "Retry with backoff.",
  },
  {
    code: "LIMITER_UNAVAILABLE",
    status: 503,
    type: "server_error",
    meaning:
      "The shared limiter store (Redis) is unreachable and this call's limits are declared closed during an outage (a price's onLimiterOutage: closed, prepaid credits, a spend cap, or PLATFORM_LIMITER_OUTAGE=closed).",
    fix: "Retry after the seconds in Retry-After.",
  },
];
