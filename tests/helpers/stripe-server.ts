// A Stripe-compatible HTTP server for the tests: Stripe itself cannot be reached from the test machines, so the
// platform's code points the official SDK at this server (`new Stripe(key, { host: "127.0.0.1", port, protocol: "http" })`).
// It speaks Stripe's wire format (form-encoded requests with bracketed keys, JSON answers, Stripe's error shapes and
// statuses, Idempotency-Key replays) for the few endpoints the platform uses, honours Stripe's test PaymentMethod ids
// (pm_card_visa, pm_card_chargeDeclined, ...) and sends events to a webhook URL signed exactly as Stripe signs them.
// tests/unit/stripe-server.test.ts drives it through the SDK, so what it accepts and answers stays what the SDK
// sends and parses. Where the real Stripe differs from the obvious (403 for an unknown account, no idempotent replay
// of validation errors, transfers needing an onboarded destination), this server follows the real one.
import crypto from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";

/** A Stripe object or a parsed form body: Stripe's objects are loose bags of fields. */
type Bag = Record<string, any>;

export interface RecordedRequest {
  method: string;
  /** Without the query string. */
  path: string;
  query: Bag;
  body: Bag;
  /** Lower-case names. */
  headers: Record<string, string>;
  idempotencyKey: string | null;
  at: number;
}

export interface WebhookDelivery {
  eventId: string;
  type: string;
  url: string;
  /** What the receiver answered; 0 when it could not be reached or did not answer in time. */
  status: number;
  at: number;
}

export interface StripeServer {
  url: string;
  port: number;
  secretKey: string;
  webhookSecret: string;
  /** Where events are POSTed (the platform's /webhooks/stripe); null = not delivered (still recorded). */
  setWebhookUrl(url: string | null): void;
  /** Every request received. */
  requests: RecordedRequest[];
  /** Every event created, in order. */
  events: any[];
  /** Objects by id (customers, payment methods, payment intents, charges, refunds, accounts, disputes, ...). */
  objects: Map<string, any>;
  /** Every delivery attempt, failed ones included (failures are not retried). */
  deliveries: WebhookDelivery[];
  /** Delivers an event (signed as Stripe signs) to the webhook URL, after those already queued; resolves to the HTTP
   * status the receiver answered (0 when unreachable). */
  deliver(event: any): Promise<number>;
  /** Creates an event of `type` about `object` and, when a webhook URL is set and automatic delivery is on,
   * delivers it and waits for the receiver's answer. */
  emit(type: string, object: any): Promise<any>;
  /** Off: events are recorded but not delivered (to test reconciliation and, with deliver(), out-of-order delivery). */
  setAutoDeliver(on: boolean): void;
  /** Resolves when every queued delivery has been attempted. */
  flushDeliveries(): Promise<void>;
  /** The next request to `endpoint` ("POST /v1/payment_intents") is executed (objects made, answer saved under its
   * idempotency key, events recorded) but its answer is held until release(): `arrived` resolves once it has run.
   * How a test puts a kill -9 between Stripe's answer and the caller's commit. */
  holdNextAnswer(endpoint: string): { arrived: Promise<void>; release(): void };
  /** Marks a connected account as fully onboarded (charges_enabled, payouts_enabled, no requirements) and emits
   * account.updated. */
  completeOnboarding(accountId: string): Promise<void>;
  /** What Stripe.js does when the card holder passes 3-D Secure for a PaymentIntent in requires_action: the charge
   * is made, and charge.succeeded and payment_intent.succeeded are emitted (and delivered). */
  completeAuthentication(intentId: string): Promise<void>;
  close(): Promise<void>;
}

/** Stripe's signature header: `t=<unix s>,v1=<hex HMAC-SHA256 of "t.payload" keyed by the whole whsec_ string>`. */
export function signStripePayload(payload: string, secret: string, timestampSeconds = Math.floor(Date.now() / 1000)): string {
  const signature = crypto.createHmac("sha256", secret).update(`${timestampSeconds}.${payload}`, "utf8").digest("hex");
  return `t=${timestampSeconds},v1=${signature}`;
}

/** The API version of events caused by no request that carried a Stripe-Version header. */
const DEFAULT_API_VERSION = "2025-01-01";
const DELIVERY_TIMEOUT_MS = 5_000;

type CardBehaviour = "succeeds" | "declines" | "requires_authentication" | "disputed";
/** Stripe's test PaymentMethod ids; chargeDeclined is refused at attach and declines every charge. */
const TEST_CARDS: Record<string, { brand: string; last4: string; behaviour: CardBehaviour; refusedAtAttach?: boolean }> = {
  pm_card_visa: { brand: "visa", last4: "4242", behaviour: "succeeds" },
  pm_card_mastercard: { brand: "mastercard", last4: "4444", behaviour: "succeeds" },
  pm_card_chargeDeclined: { brand: "visa", last4: "0002", behaviour: "declines", refusedAtAttach: true },
  pm_card_chargeCustomerFail: { brand: "visa", last4: "0341", behaviour: "declines" },
  pm_card_authenticationRequired: { brand: "visa", last4: "3184", behaviour: "requires_authentication" },
  pm_card_createDispute: { brand: "visa", last4: "0259", behaviour: "disputed" },
};
type CardFailure = { code: string; decline_code: string; message: string };
const DECLINE: CardFailure = { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." };
const AUTHENTICATION: CardFailure = {
  code: "authentication_required",
  decline_code: "authentication_required",
  message: "Your card was declined. This transaction requires authentication.",
};
const CONFIRMABLE = ["requires_payment_method", "requires_confirmation", "requires_action"];
const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer"];
/** Stripe's minimum charge amounts, in the smallest unit, for the currencies the platform uses. */
const MINIMUM_AMOUNTS: Record<string, number> = { usd: 50, eur: 50, gbp: 30 };
type CreatedFilter = (created: number, bound: number) => boolean;
const CREATED_FILTERS: Record<string, CreatedFilter> = {
  gt: (c, b) => c > b,
  gte: (c, b) => c >= b,
  lt: (c, b) => c < b,
  lte: (c, b) => c <= b,
};
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Stripe's wording of its longer refusals. */
const SAYS = {
  noAccess: (key: string, account: string) =>
    `The provided key '${key}' does not have access to account '${account}' (or that account does not exist). Application access may have been revoked.`,
  notCustomersCard: (id: string) =>
    `The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`,
  alreadyAttached: "The payment method you provided has already been attached to a customer.",
  spent:
    "This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.",
  notAttached: "The payment method you provided is not attached to a customer so detachment is impossible.",
  otherCustomersCard: "The provided PaymentMethod belongs to a different Customer.",
  customerNeeded: "The provided PaymentMethod is attached to a Customer; pass that Customer as `customer` to use it.",
  noCapability:
    "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments",
  feeWithoutDestination:
    "Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).",
  alreadySucceeded: "You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.",
  noPaymentMethod:
    "You cannot confirm this PaymentIntent because it's missing a payment method. Specify a payment method attached to its customer.",
  notConfirmable: (status: string) => `This PaymentIntent's status is ${status}, but must be one of ${CONFIRMABLE.join(", ")}.`,
  refundTooLarge: (amount: string, left: string) => `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
  otherParameters: (key: string) =>
    `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
  otherEndpoint: (key: string, first: string, now: string) =>
    `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${first}' vs '${now}'). Try using a key other than '${key}' if you meant to execute a different request.`,
  noKey:
    "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
};

/** Stripe's `error`: type and message, then code, decline_code, param, payment_intent, ... as the case has them. */
type StripeErrorBody = { type: string; message: string } & Bag;

/** Thrown by the handlers; answered as `{ error }` with `status`. */
class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: StripeErrorBody,
  ) {
    super(error.message);
  }
}

const invalid = (message: string, param?: string, code?: string, status = 400) =>
  new StripeApiError(status, { type: "invalid_request_error", message, ...(code ? { code } : {}), ...(param ? { param } : {}) });
const missingParam = (param: string) => invalid(`Missing required param: ${param}.`, param, "parameter_missing");
const noSuch = (kind: string, id: string, param = "id") =>
  new StripeApiError(404, { type: "invalid_request_error", code: "resource_missing", message: `No such ${kind}: '${id}'`, param });

/** Parses Stripe's form encoding (`a[b][c]=1`, `list[]=x`, `list[0]=x`) into nested objects and arrays; values stay
 * strings, as Stripe reads them. */
export function parseStripeForm(text: string): Bag {
  const root: Bag = {};
  for (const pair of text.split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const key = decodeFormComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? "" : decodeFormComponent(pair.slice(eq + 1));
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) throw invalid(`Invalid parameter name: ${key}`);
    const path = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
    let node: any = root;
    for (let i = 0; i < path.length; i++) {
      const segment = Array.isArray(node) && path[i] === "" ? String(node.length) : path[i];
      if (UNSAFE_KEYS.has(segment)) break;
      if (i === path.length - 1) {
        node[segment] = value;
      } else {
        const next = path[i + 1];
        if (node[segment] === null || typeof node[segment] !== "object") node[segment] = next === "" || /^\d+$/.test(next) ? [] : {};
        node = node[segment];
      }
    }
  }
  return root;
}

function decodeFormComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    throw invalid(`Invalid URL encoding: ${text}`);
  }
}

const randomToken = (length: number) => crypto.randomBytes(length).toString("hex").slice(0, length);
const newId = (prefix: string) => `${prefix}_${randomToken(24)}`;
const unixNow = () => Math.floor(Date.now() / 1000);
const clone = <T>(value: T): T => structuredClone(value);
/** `{ key: params[key] ?? null }` for each key: the optional fields Stripe answers with null when not given. */
const orNull = (params: Bag, ...keys: string[]) => Object.fromEntries(keys.map((key) => [key, params[key] ?? null]));

/** Canonical JSON (sorted keys), so an idempotent retry matches whatever order its parameters came in. */
function fingerprint(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(fingerprint).join(",")}]`;
  if (!value || typeof value !== "object") return JSON.stringify(value);
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${fingerprint(v)}`).join(",")}}`;
}

function parseInteger(value: unknown, param: string): number {
  if (typeof value !== "string" || !/^-?\d+$/.test(value)) throw invalid(`Invalid integer: ${value}`, param, "parameter_invalid_integer");
  return Number(value);
}

function parseFlag(value: unknown, param: string): boolean {
  if (value === undefined || value === "true" || value === "false") return value === "true";
  throw invalid(`Invalid boolean: ${value}`, param);
}

function formatMoney(amount: number, currency: string): string {
  const major = (amount / 100).toFixed(2);
  return currency === "usd" ? `$${major}` : `${major} ${currency.toUpperCase()}`;
}

function maskKey(key: string): string {
  const prefix = /^(sk|rk|pk)_(test|live)_/.exec(key)?.[0] ?? "";
  const rest = key.slice(prefix.length);
  return `${prefix}${"*".repeat(Math.max(0, rest.length - 4))}${rest.slice(-4)}`;
}

/** Stripe's metadata update: keys merge, an empty value deletes its key, an empty string for the whole clears it. */
function mergeMetadata(current: Bag, update: unknown): Bag {
  if (update === undefined) return current;
  if (update === "") return {};
  if (!update || typeof update !== "object" || Array.isArray(update)) throw invalid("Invalid object", "metadata");
  const merged = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (typeof value !== "string") throw invalid(`Invalid value for metadata[${key}]: must be a string`, `metadata[${key}]`);
    if (value === "") delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

interface Call {
  params: Bag;
  idempotencyKey: string | null;
  apiVersion: string;
  requestId: string;
  /** Events this request caused, delivered once its answer has been sent. */
  emitted: Bag[];
}

type Handler = (call: Call, id: string) => Bag;

export async function startStripeServer(opts: { webhookUrl?: string; autoDeliver?: boolean } = {}): Promise<StripeServer> {
  const secretKey = `sk_test_${randomToken(32)}`;
  const webhookSecret = `whsec_${crypto.randomBytes(24).toString("base64")}`;
  let webhookUrl: string | null = opts.webhookUrl ?? null;
  let autoDeliver = opts.autoDeliver ?? true;
  let lastApiVersion = DEFAULT_API_VERSION;
  let baseUrl = "";
  const requests: RecordedRequest[] = [];
  const events: Bag[] = [];
  const objects = new Map<string, Bag>();
  const deliveries: WebhookDelivery[] = [];
  /** How each concrete PaymentMethod made from a test id behaves when charged. */
  const behaviours = new Map<string, CardBehaviour>();
  /** PaymentMethods detached, or used without a customer: Stripe refuses to attach them again. */
  const spentPaymentMethods = new Set<string>();
  const idempotentAnswers = new Map<string, { endpoint: string; fingerprint: string; status: number; body: Bag }>();
  let deliveryChain: Promise<unknown> = Promise.resolve();

  /** Stores a new object with the fields every Stripe object has. */
  function store(prefix: string, object: string, fields: Bag): Bag {
    const stored = { id: newId(prefix), object, created: unixNow(), livemode: false, ...fields };
    objects.set(stored.id, stored);
    return stored;
  }

  // ---- events and webhooks ----

  function createEvent(type: string, object: Bag, call: Call | null): Bag {
    const event = {
      id: newId("evt"),
      object: "event",
      api_version: call?.apiVersion ?? lastApiVersion,
      created: unixNow(),
      type,
      livemode: false,
      pending_webhooks: 1,
      data: { object: clone(object) },
      request: { id: call?.requestId ?? null, idempotency_key: call?.idempotencyKey ?? null },
    };
    events.push(event);
    call?.emitted.push(event);
    return event;
  }

  // One chain per server keeps deliveries in the order they were queued.
  function queueDelivery(event: Bag): Promise<number> {
    const delivered = deliveryChain.then(() => post(event));
    deliveryChain = delivered.catch(() => 0);
    return delivered;
  }

  function post(event: Bag): Promise<number> {
    const target = webhookUrl;
    if (!target) return Promise.resolve(0);
    // Stripe sends pretty-printed JSON; receivers must verify the raw bytes, not a re-serialisation.
    const payload = JSON.stringify(event, null, 2);
    const headers = {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(payload),
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      "stripe-signature": signStripePayload(payload, webhookSecret),
    };
    return new Promise<number>((resolve) => {
      const finish = (status: number) => {
        deliveries.push({ eventId: event.id, type: event.type, url: target, status, at: Date.now() });
        resolve(status);
      };
      // agent: false, so that no pooled socket is left behind to keep a test process alive.
      const options = { method: "POST", agent: false, timeout: DELIVERY_TIMEOUT_MS, headers };
      const req = (target.startsWith("https:") ? https : http).request(target, options, (res) => {
        res.resume();
        res.on("end", () => finish(res.statusCode ?? 0));
        res.on("error", () => finish(res.statusCode ?? 0));
      });
      req.on("timeout", () => req.destroy());
      req.on("error", () => finish(0));
      req.end(payload);
    });
  }

  // ---- lookups ----

  function find(id: unknown, object: string, kind: string, param = "id"): Bag {
    const found = typeof id === "string" ? objects.get(id) : undefined;
    if (found?.object !== object) throw noSuch(kind, String(id), param);
    return found;
  }

  // Real Stripe answers 403 for an account the key cannot see, whether or not it exists.
  function findAccount(id: unknown): Bag {
    const found = typeof id === "string" ? objects.get(id) : undefined;
    if (found?.object === "account") return found;
    throw invalid(SAYS.noAccess(maskKey(secretKey), String(id)), undefined, "account_invalid", 403);
  }

  function newPaymentMethod(testId: string, customer: string | null): Bag {
    const { brand, last4, behaviour } = TEST_CARDS[testId];
    const card = { brand, last4, exp_month: 12, exp_year: new Date().getFullYear() + 1, country: "US", funding: "credit" };
    const paymentMethod = store("pm", "payment_method", { type: "card", card, customer, metadata: {} });
    behaviours.set(paymentMethod.id, behaviour);
    return paymentMethod;
  }

  /** A PaymentMethod by concrete id, or a fresh unattached one for a test id (Stripe makes one on each use). */
  function resolvePaymentMethod(id: unknown, param: string): Bag {
    if (typeof id === "string" && TEST_CARDS[id]) return newPaymentMethod(id, null);
    return find(id, "payment_method", "PaymentMethod", param);
  }

  function optionalCustomer(id: unknown): Bag | null {
    if (id === undefined) return null;
    if (typeof id !== "string" || !id) throw missingParam("customer");
    return find(id, "customer", "customer", "customer");
  }

  /** Stripe's list: newest first, `created` filters, `limit` (10 unless told) and `starting_after`. */
  function listOf(all: Bag[], params: Bag, url: string): Bag {
    let items = [...all].reverse();
    if (params.created !== undefined) {
      const bounds: Bag = typeof params.created === "object" ? params.created : { gte: params.created, lte: params.created };
      for (const [op, bound] of Object.entries(bounds)) {
        if (!CREATED_FILTERS[op]) throw invalid(`Received unknown parameter: created[${op}]`, `created[${op}]`);
        const limit = parseInteger(bound, `created[${op}]`);
        items = items.filter((o) => CREATED_FILTERS[op](o.created, limit));
      }
    }
    if (params.starting_after !== undefined) {
      const index = items.findIndex((o) => o.id === params.starting_after);
      if (index < 0) throw noSuch("object", String(params.starting_after), "starting_after");
      items = items.slice(index + 1);
    }
    const limit = params.limit === undefined ? 10 : parseInteger(params.limit, "limit");
    if (limit < 1 || limit > 100) throw invalid("This value must be between 1 and 100.", "limit");
    return { object: "list", data: items.slice(0, limit), has_more: items.length > limit, url };
  }

  const allOf = (object: string) => [...objects.values()].filter((o) => o.object === object);

  /** A copy of `answer` (never the live object) with its `expand[]` paths (`latest_charge`, `data.customer`, ...)
   * replaced by the objects they name. */
  function expand(answer: Bag, paths: unknown): Bag {
    const expanded = clone(answer);
    const expandPath = (node: any, segments: string[]): void => {
      if (!node || typeof node !== "object") return;
      const [head, ...rest] = segments;
      if (head === "data" && node.object === "list") return node.data.forEach((item: Bag) => expandPath(item, rest));
      if (rest.length > 0) return expandPath(node[head], rest);
      if (typeof node[head] === "string" && objects.has(node[head])) node[head] = clone(objects.get(node[head]));
    };
    for (const path of Array.isArray(paths) ? paths : []) if (typeof path === "string") expandPath(expanded, path.split("."));
    return expanded;
  }

  // ---- customers, payment methods, setup intents ----

  function createCustomer({ params: p }: Call): Bag {
    return store("cus", "customer", {
      ...orNull(p, "description", "email", "name", "phone"),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      metadata: mergeMetadata({}, p.metadata),
    });
  }

  function updateCustomer({ params: p }: Call, id: string): Bag {
    const customer = find(id, "customer", "customer");
    const defaultPaymentMethod = p.invoice_settings?.default_payment_method;
    const param = "invoice_settings[default_payment_method]";
    const card = defaultPaymentMethod ? objects.get(defaultPaymentMethod) : undefined;
    if (defaultPaymentMethod && (card?.object !== "payment_method" || card.customer !== customer.id))
      throw invalid(SAYS.notCustomersCard(defaultPaymentMethod), param, "resource_missing");
    const metadata = mergeMetadata(customer.metadata, p.metadata);
    for (const field of ["email", "name", "description", "phone"]) if (p[field] !== undefined) customer[field] = p[field] || null;
    if (defaultPaymentMethod !== undefined) customer.invoice_settings.default_payment_method = defaultPaymentMethod || null;
    customer.metadata = metadata;
    return customer;
  }

  function attachPaymentMethod({ params: p }: Call, id: string): Bag {
    if (!p.customer) throw missingParam("customer");
    const customer = find(p.customer, "customer", "customer", "customer");
    const testCard = TEST_CARDS[id];
    if (testCard?.refusedAtAttach) throw new StripeApiError(402, { type: "card_error", ...DECLINE });
    if (testCard) return newPaymentMethod(id, customer.id);
    const paymentMethod = find(id, "payment_method", "PaymentMethod");
    if (paymentMethod.customer === customer.id) return paymentMethod;
    if (paymentMethod.customer) throw invalid(SAYS.alreadyAttached, "payment_method");
    if (spentPaymentMethods.has(paymentMethod.id)) throw invalid(SAYS.spent, "payment_method");
    paymentMethod.customer = customer.id;
    return paymentMethod;
  }

  function detachPaymentMethod(_call: Call, id: string): Bag {
    const paymentMethod = find(id, "payment_method", "PaymentMethod");
    if (!paymentMethod.customer) throw invalid(SAYS.notAttached, "payment_method");
    // Stripe also drops it as the customer's default.
    const settings = objects.get(paymentMethod.customer)?.invoice_settings;
    if (settings?.default_payment_method === paymentMethod.id) settings.default_payment_method = null;
    paymentMethod.customer = null;
    spentPaymentMethods.add(paymentMethod.id);
    return paymentMethod;
  }

  function listPaymentMethods({ params: p }: Call): Bag {
    const customer = optionalCustomer(p.customer);
    const matching = allOf("payment_method").filter((pm) => (!customer || pm.customer === customer.id) && (!p.type || pm.type === p.type));
    return listOf(matching, p, "/v1/payment_methods");
  }

  function createSetupIntent({ params: p }: Call): Bag {
    const customer = optionalCustomer(p.customer);
    const usage = p.usage ?? "off_session";
    if (usage !== "off_session" && usage !== "on_session")
      throw invalid("Invalid usage: must be one of off_session or on_session", "usage");
    const setupIntent = store("seti", "setup_intent", {
      customer: customer?.id ?? null,
      metadata: mergeMetadata({}, p.metadata),
      payment_method: null,
      payment_method_types: Array.isArray(p.payment_method_types) ? p.payment_method_types : ["card"],
      status: "requires_payment_method",
      usage,
    });
    setupIntent.client_secret = `${setupIntent.id}_secret_${randomToken(24)}`;
    return setupIntent;
  }

  // ---- payment intents, charges, refunds ----

  function createPaymentIntent(call: Call): Bag {
    const p = call.params;
    if (p.amount === undefined) throw missingParam("amount");
    const amount = parseInteger(p.amount, "amount");
    if (amount < 1) throw invalid("This value must be greater than or equal to 1.", "amount");
    if (p.currency === undefined) throw missingParam("currency");
    const currency = String(p.currency).toLowerCase();
    if (!/^[a-z]{3}$/.test(currency)) throw invalid(`Invalid currency: ${p.currency}`, "currency");
    const minimum = MINIMUM_AMOUNTS[currency] ?? 1;
    if (amount < minimum)
      throw invalid(`Amount must be at least ${formatMoney(minimum, currency)} ${currency}`, "amount", "amount_too_small");
    const customer = optionalCustomer(p.customer);
    const destination = p.transfer_data?.destination;
    if (destination !== undefined) {
      const account = objects.get(destination);
      if (account?.object !== "account") throw noSuch("destination", String(destination), "transfer_data[destination]");
      // A destination that has not finished onboarding cannot receive transfers: the real API refuses the charge.
      if (account.capabilities.transfers !== "active")
        throw invalid(SAYS.noCapability, "transfer_data[destination]", "insufficient_capabilities_for_transfer");
    }
    const fee = p.application_fee_amount === undefined ? null : parseInteger(p.application_fee_amount, "application_fee_amount");
    if (fee !== null && destination === undefined) throw invalid(SAYS.feeWithoutDestination, "application_fee_amount");
    if (fee !== null && (fee < 0 || fee > amount)) throw invalid("The application fee cannot exceed the amount.", "application_fee_amount");
    const confirm = parseFlag(p.confirm, "confirm");
    if (p.off_session !== undefined && !confirm) throw invalid("You can only use `off_session` when `confirm` is true.", "off_session");
    const paymentMethod = p.payment_method === undefined ? null : resolvePaymentMethod(p.payment_method, "payment_method");
    if (paymentMethod?.customer && paymentMethod.customer !== customer?.id)
      throw invalid(customer ? SAYS.otherCustomersCard : SAYS.customerNeeded, "payment_method");
    const intent = store("pi", "payment_intent", {
      amount,
      amount_received: 0,
      application_fee_amount: fee,
      currency,
      customer: customer?.id ?? null,
      description: p.description ?? null,
      last_payment_error: null,
      latest_charge: null,
      metadata: mergeMetadata({}, p.metadata),
      next_action: null,
      payment_method: paymentMethod?.id ?? null,
      payment_method_types: ["card"],
      status: paymentMethod ? "requires_confirmation" : "requires_payment_method",
      transfer_data: destination === undefined ? null : { destination },
    });
    intent.client_secret = `${intent.id}_secret_${randomToken(24)}`;
    return confirm ? confirmIntent(intent, null, p.off_session, call) : intent;
  }

  function confirmPaymentIntent(call: Call, id: string): Bag {
    const intent = find(id, "payment_intent", "payment_intent");
    const { payment_method: paymentMethodId, off_session: offSession } = call.params;
    const paymentMethod = paymentMethodId === undefined ? null : resolvePaymentMethod(paymentMethodId, "payment_method");
    return confirmIntent(intent, paymentMethod, offSession, call);
  }

  function confirmIntent(intent: Bag, replacement: Bag | null, offSessionParam: unknown, call: Call): Bag {
    const unexpected = "payment_intent_unexpected_state";
    if (intent.status === "succeeded") throw invalid(SAYS.alreadySucceeded, undefined, unexpected);
    if (!CONFIRMABLE.includes(intent.status)) throw invalid(SAYS.notConfirmable(intent.status), undefined, unexpected);
    const paymentMethod = replacement ?? (intent.payment_method ? objects.get(intent.payment_method) : null);
    if (!paymentMethod) throw invalid(SAYS.noPaymentMethod, "payment_method", unexpected);
    // Stripe takes off_session=true, or the older one_off / recurring.
    const offSession = offSessionParam !== undefined && offSessionParam !== "false";
    intent.payment_method = paymentMethod.id;
    intent.next_action = null;
    if (!paymentMethod.customer) spentPaymentMethods.add(paymentMethod.id);
    const behaviour = behaviours.get(paymentMethod.id) ?? "succeeds";
    if (behaviour === "requires_authentication") {
      // No charge is attempted: off-session the payment fails, on-session the customer is asked to authenticate.
      if (offSession) failIntent(intent, paymentMethod, AUTHENTICATION, null, call);
      intent.status = "requires_action";
      intent.next_action = { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect" } };
      createEvent("payment_intent.requires_action", intent, call);
      return intent;
    }
    if (behaviour === "declines") {
      const failed = createCharge(intent, paymentMethod, DECLINE);
      createEvent("charge.failed", failed, call);
      failIntent(intent, paymentMethod, DECLINE, failed, call);
    }
    const charge = createCharge(intent, paymentMethod, null);
    Object.assign(intent, { status: "succeeded", amount_received: intent.amount, last_payment_error: null });
    createEvent("charge.succeeded", charge, call);
    createEvent("payment_intent.succeeded", intent, call);
    if (behaviour === "disputed") {
      const dispute = store("dp", "dispute", {
        amount: charge.amount,
        charge: charge.id,
        currency: charge.currency,
        metadata: {},
        payment_intent: intent.id,
        reason: "fraudulent",
        status: "needs_response",
      });
      charge.disputed = true;
      createEvent("charge.dispute.created", dispute, call);
    }
    return intent;
  }

  /** Records the failure on the PaymentIntent, emits payment_intent.payment_failed and answers 402. */
  function failIntent(intent: Bag, paymentMethod: Bag, failure: CardFailure, charge: Bag | null, call: Call): never {
    const lastPaymentError = { type: "card_error", ...failure, charge: charge?.id, payment_method: clone(paymentMethod) };
    // As Stripe does: the PaymentIntent waits for another payment method.
    Object.assign(intent, { status: "requires_payment_method", payment_method: null, last_payment_error: lastPaymentError });
    createEvent("payment_intent.payment_failed", intent, call);
    throw new StripeApiError(402, { ...lastPaymentError, payment_intent: clone(intent) });
  }

  function createCharge(intent: Bag, paymentMethod: Bag, failure: CardFailure | null): Bag {
    const destination = intent.transfer_data?.destination ?? null;
    const succeeded = failure === null;
    const charge = store("ch", "charge", {
      amount: intent.amount,
      amount_refunded: 0,
      application_fee: succeeded && intent.application_fee_amount !== null ? newId("fee") : null,
      application_fee_amount: intent.application_fee_amount,
      balance_transaction: succeeded ? newId("txn") : null,
      currency: intent.currency,
      customer: intent.customer,
      disputed: false,
      failure_code: failure?.code ?? null,
      failure_message: failure?.message ?? null,
      metadata: clone(intent.metadata),
      paid: succeeded,
      payment_intent: intent.id,
      payment_method: paymentMethod.id,
      payment_method_details: { type: "card", card: clone(paymentMethod.card) },
      refunded: false,
      status: succeeded ? "succeeded" : "failed",
      transfer: succeeded && destination ? newId("tr") : null,
      transfer_data: destination ? { amount: null, destination } : null,
    });
    charge.refunds = { object: "list", data: [], has_more: false, total_count: 0, url: `/v1/charges/${charge.id}/refunds` };
    intent.latest_charge = charge.id;
    return charge;
  }

  function listPaymentIntents({ params: p }: Call): Bag {
    const matching = allOf("payment_intent").filter((pi) => p.customer === undefined || pi.customer === p.customer);
    return listOf(matching, p, "/v1/payment_intents");
  }

  function successfulCharge(p: Bag): Bag {
    if (p.charge !== undefined) return find(p.charge, "charge", "charge", "charge");
    if (p.payment_intent === undefined) throw missingParam("payment_intent");
    const intent = find(p.payment_intent, "payment_intent", "payment_intent", "payment_intent");
    if (intent.status !== "succeeded")
      throw invalid(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, "payment_intent");
    return objects.get(intent.latest_charge)!;
  }

  function createRefund(call: Call): Bag {
    const p = call.params;
    const charge = successfulCharge(p);
    const left = charge.amount - charge.amount_refunded;
    if (left === 0) throw invalid(`Charge ${charge.id} has already been refunded.`, undefined, "charge_already_refunded");
    const amount = p.amount === undefined ? left : parseInteger(p.amount, "amount");
    if (amount < 1) throw invalid("This value must be greater than or equal to 1.", "amount");
    const [asked, unrefunded] = [amount, left].map((n) => formatMoney(n, charge.currency));
    if (amount > left) throw invalid(SAYS.refundTooLarge(asked, unrefunded), "amount", "amount_too_large");
    if (p.reason !== undefined && !REFUND_REASONS.includes(p.reason))
      throw invalid(`Invalid reason: must be one of ${REFUND_REASONS.join(", ")}`, "reason");
    const reverseTransfer = parseFlag(p.reverse_transfer, "reverse_transfer");
    parseFlag(p.refund_application_fee, "refund_application_fee");
    const refund = store("re", "refund", {
      amount,
      balance_transaction: newId("txn"),
      charge: charge.id,
      currency: charge.currency,
      metadata: mergeMetadata({}, p.metadata),
      payment_intent: charge.payment_intent,
      reason: p.reason ?? null,
      status: "succeeded",
      transfer_reversal: reverseTransfer && charge.transfer ? newId("trr") : null,
    });
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    charge.refunds.data.unshift(clone(refund));
    charge.refunds.total_count += 1;
    createEvent("charge.refunded", charge, call);
    return refund;
  }

  // ---- Connect and events ----

  function createAccount({ params: p }: Call): Bag {
    if (p.type === undefined) throw missingParam("type");
    if (!["express", "standard", "custom"].includes(p.type))
      throw invalid("Invalid type: must be one of express, standard, or custom", "type");
    const capabilities: Bag = {};
    for (const [name, settings] of Object.entries<Bag>(p.capabilities ?? {}))
      if (settings?.requested === "true") capabilities[name] = "inactive";
    return store("acct", "account", {
      type: p.type,
      capabilities,
      charges_enabled: false,
      country: p.country ?? "US",
      default_currency: "usd",
      details_submitted: false,
      email: p.email ?? null,
      metadata: mergeMetadata({}, p.metadata),
      payouts_enabled: false,
      requirements: {
        currently_due: ["external_account", "tos_acceptance.date"],
        eventually_due: [],
        past_due: [],
        disabled_reason: "requirements.past_due",
      },
    });
  }

  function markOnboarded(account: Bag): void {
    Object.assign(account, { charges_enabled: true, payouts_enabled: true, details_submitted: true });
    account.requirements = { currently_due: [], eventually_due: [], past_due: [], disabled_reason: null };
    for (const name of Object.keys(account.capabilities)) account.capabilities[name] = "active";
  }

  function createAccountLink({ params: p }: Call): Bag {
    for (const param of ["account", "type", "refresh_url", "return_url"]) if (p[param] === undefined) throw missingParam(param);
    if (p.type !== "account_onboarding" && p.type !== "account_update")
      throw invalid("Invalid type: must be one of account_onboarding or account_update", "type");
    const account = findAccount(p.account);
    const created = unixNow();
    const query = new URLSearchParams({ return_url: p.return_url, refresh_url: p.refresh_url });
    return { object: "account_link", created, expires_at: created + 300, url: `${baseUrl}/connect/onboarding/${account.id}?${query}` };
  }

  function retrieveEvent(_call: Call, id: string): Bag {
    const event = events.find((e) => e.id === id);
    if (!event) throw noSuch("event", id);
    return event;
  }

  const listEvents = ({ params: p }: Call) =>
    listOf(
      events.filter((e) => p.type === undefined || e.type === p.type),
      p,
      "/v1/events",
    );

  const routes: Array<[string, RegExp, Handler]> = [
    ["POST", /^\/v1\/customers$/, createCustomer],
    ["GET", /^\/v1\/customers\/([^/]+)$/, (_call, id) => find(id, "customer", "customer")],
    ["POST", /^\/v1\/customers\/([^/]+)$/, updateCustomer],
    ["GET", /^\/v1\/payment_methods$/, listPaymentMethods],
    ["GET", /^\/v1\/payment_methods\/([^/]+)$/, (_call, id) => resolvePaymentMethod(id, "id")],
    ["POST", /^\/v1\/payment_methods\/([^/]+)\/attach$/, attachPaymentMethod],
    ["POST", /^\/v1\/payment_methods\/([^/]+)\/detach$/, detachPaymentMethod],
    ["POST", /^\/v1\/setup_intents$/, createSetupIntent],
    ["POST", /^\/v1\/payment_intents$/, createPaymentIntent],
    ["GET", /^\/v1\/payment_intents$/, listPaymentIntents],
    ["GET", /^\/v1\/payment_intents\/([^/]+)$/, (_call, id) => find(id, "payment_intent", "payment_intent")],
    ["POST", /^\/v1\/payment_intents\/([^/]+)\/confirm$/, confirmPaymentIntent],
    ["POST", /^\/v1\/refunds$/, createRefund],
    ["POST", /^\/v1\/accounts$/, createAccount],
    ["GET", /^\/v1\/accounts\/([^/]+)$/, (_call, id) => findAccount(id)],
    ["POST", /^\/v1\/account_links$/, createAccountLink],
    ["GET", /^\/v1\/events$/, listEvents],
    ["GET", /^\/v1\/events\/([^/]+)$/, retrieveEvent],
  ];

  // ---- HTTP ----

  function answer(call: Call, method: string, path: string): { status: number; body: Bag } {
    for (const [routeMethod, pattern, handler] of routes) {
      const match = routeMethod === method ? pattern.exec(path) : null;
      if (!match) continue;
      try {
        return { status: 200, body: expand(handler(call, decodeURIComponent(match[1] ?? "")), call.params.expand) };
      } catch (error) {
        if (error instanceof StripeApiError) return { status: error.status, body: { error: error.error } };
        return { status: 500, body: { error: { type: "api_error", message: `Stripe test server failure: ${error}` } } };
      }
    }
    return { status: 404, body: { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path}).` } } };
  }

  function authError(authorization = ""): Bag | null {
    const key = /^Bearer (.+)$/i.exec(authorization)?.[1];
    if (key === secretKey) return null;
    return { error: { type: "invalid_request_error", message: key ? `Invalid API Key provided: ${maskKey(key)}` : SAYS.noKey } };
  }

  /** The onboarding page an account link leads to: visiting it completes onboarding and goes back to return_url. */
  function onboard(res: http.ServerResponse, accountId: string, returnUrl: string | null, call: Call): void {
    const account = objects.get(accountId);
    if (account?.object !== "account") return void res.writeHead(404, { "content-type": "text/plain" }).end("Unknown account");
    markOnboarded(account);
    createEvent("account.updated", account, call);
    if (returnUrl) res.writeHead(302, { location: returnUrl }).end();
    else res.writeHead(200, { "content-type": "text/html" }).end("<p>Onboarding complete.</p>");
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk);
    const method = req.method ?? "GET";
    const target = new URL(req.url ?? "/", baseUrl);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = String(value);
    const idempotencyKey = method === "POST" ? (headers["idempotency-key"] ?? null) : null;
    const requestId = `req_${randomToken(14)}`;
    const apiVersion = headers["stripe-version"] ?? lastApiVersion;
    lastApiVersion = apiVersion;
    const send = (status: number, body: Bag, extra: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": requestId, "stripe-version": apiVersion, ...extra });
      res.end(JSON.stringify(body, null, 2));
    };
    const recorded: RecordedRequest = { method, path: target.pathname, query: {}, body: {}, headers, idempotencyKey, at: Date.now() };
    requests.push(recorded);
    try {
      recorded.query = parseStripeForm(target.search.slice(1));
      recorded.body = parseStripeForm(Buffer.concat(chunks).toString("utf8"));
    } catch (error) {
      if (error instanceof StripeApiError) return send(error.status, { error: error.error });
      throw error;
    }
    const call: Call = { params: { ...recorded.query, ...recorded.body }, idempotencyKey, apiVersion, requestId, emitted: [] };
    // Events go out once the answer that caused them has been sent, never holding the answer back.
    res.on("finish", () => {
      if (autoDeliver && webhookUrl) for (const event of call.emitted) void queueDelivery(event);
    });

    const onboarding = /^\/connect\/onboarding\/([^/]+)$/.exec(target.pathname);
    if (method === "GET" && onboarding) return onboard(res, onboarding[1], target.searchParams.get("return_url"), call);
    const refusal = authError(headers.authorization);
    if (refusal) return send(401, refusal, { "www-authenticate": 'Bearer realm="Stripe"' });

    const endpoint = `${method} ${target.pathname}`;
    const requestFingerprint = fingerprint(call.params);
    const stored = idempotencyKey === null ? undefined : idempotentAnswers.get(idempotencyKey);
    if (idempotencyKey !== null && stored) {
      if (stored.endpoint !== endpoint)
        return send(400, { error: { type: "idempotency_error", message: SAYS.otherEndpoint(idempotencyKey, stored.endpoint, endpoint) } });
      if (stored.fingerprint !== requestFingerprint)
        return send(400, { error: { type: "idempotency_error", message: SAYS.otherParameters(idempotencyKey) } });
      return send(stored.status, stored.body, { "idempotent-replayed": "true", "idempotency-key": idempotencyKey });
    }

    const result = answer(call, method, target.pathname);
    // Stripe saves a result only once the endpoint started executing: successes and card errors, not validation
    // failures (4xx other than 402) nor server errors, which a retry with the same key may run again.
    if (idempotencyKey !== null && (result.status < 400 || result.status === 402)) {
      idempotentAnswers.set(idempotencyKey, { endpoint, fingerprint: requestFingerprint, status: result.status, body: result.body });
    }
    const hold = holds.get(endpoint);
    if (hold) {
      holds.delete(endpoint);
      hold.arrive();
      await hold.released;
      if (res.destroyed) return; // the caller died waiting: its events are never delivered either
    }
    send(result.status, result.body, idempotencyKey === null ? {} : { "idempotency-key": idempotencyKey });
  }

  const holds = new Map<string, { arrive(): void; released: Promise<void> }>();

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "api_error", message: String(error) } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;

  const emitAndDeliver = async (type: string, object: Bag): Promise<Bag> => {
    const event = createEvent(type, object, null);
    if (autoDeliver && webhookUrl) await queueDelivery(event);
    return event;
  };

  return {
    url: baseUrl,
    port,
    secretKey,
    webhookSecret,
    requests,
    events,
    objects,
    deliveries,
    setWebhookUrl: (url) => void (webhookUrl = url),
    setAutoDeliver: (on) => void (autoDeliver = on),
    deliver: (event) => (webhookUrl ? queueDelivery(event) : Promise.reject(new Error("stripe-server: no webhook URL set"))),
    emit: emitAndDeliver,
    flushDeliveries: async () => void (await deliveryChain),
    completeOnboarding: async (accountId) => {
      const account = objects.get(accountId);
      if (account?.object !== "account") throw new Error(`stripe-server: no account ${accountId}`);
      markOnboarded(account);
      await emitAndDeliver("account.updated", account);
    },
    holdNextAnswer: (endpoint) => {
      let arrive!: () => void, release!: () => void;
      const arrived = new Promise<void>((r) => (arrive = r));
      const released = new Promise<void>((r) => (release = r));
      holds.set(endpoint, { arrive, released });
      return { arrived, release };
    },
    completeAuthentication: async (intentId) => {
      const intent = objects.get(intentId);
      if (intent?.object !== "payment_intent" || intent.status !== "requires_action")
        throw new Error(`stripe-server: no PaymentIntent ${intentId} waiting for authentication`);
      const charge = createCharge(intent, objects.get(intent.payment_method)!, null);
      Object.assign(intent, { status: "succeeded", amount_received: intent.amount, last_payment_error: null, next_action: null });
      await emitAndDeliver("charge.succeeded", charge);
      await emitAndDeliver("payment_intent.succeeded", intent);
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // The SDK keeps its sockets alive; cut them so close() does not wait for their idle timeout.
      server.closeAllConnections();
      await closed;
      await deliveryChain;
    },
  };
}
