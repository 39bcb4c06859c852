// The common security cases against every /v1 route of the route table: no key, unknown key, revoked key,
// expired key, missing scope, another tenant's id and the wrong environment's id (tests/helpers/security.ts).
// A new route needs a fixture here only when its path has a parameter or it reads a body; the suite says which.
import { after } from "node:test";
import { ROUTES } from "@/lib/server/route-table";
import { rotateKeyRow } from "@/lib/keys/rotate-api-key";
import { createProduct, seedBusiness, type ApiClient } from "../helpers/api";
import { runCommonRouteTests, type Params } from "../helpers/security";
import { apiKeyRow, poll } from "../helpers/db";
import { startJsonUpstream } from "../helpers/json-upstream";

async function created(api: ApiClient, path: string, body: Record<string, unknown>) {
  const res = await api.post(path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: expected 201, got ${res.status} ${res.text.slice(0, 300)}`);
  return res.body.data as { id: string };
}

const product = async (api: ApiClient): Promise<Params> => ({ id: (await createProduct(api, { name: "Security fixture" })).id });
// A product whose OpenAPI document can be fetched again: every path of this upstream answers a JSON object with an
// `openapi` field (its own path) and no operations.
const documentServer = await startJsonUpstream(undefined, () => ({ openapi: "3.1.0", paths: {} }));
after(() => documentServer.close());
const documentedProduct = async (api: ApiClient): Promise<Params> => ({
  id: (
    await createProduct(api, {
      name: "Security fixture",
      type: "API",
      api: { upstreamUrl: documentServer.url, openapiUrl: `${documentServer.url}/openapi.json` },
    })
  ).id,
});
const feature = async (api: ApiClient): Promise<Params> => {
  const p = await createProduct(api);
  return { id: (await created(api, `/v1/products/${p.id}/features`, { name: "Fixture feature" })).id };
};
const price = async (api: ApiClient): Promise<Params> => {
  const p = await createProduct(api);
  return {
    id: (await created(api, `/v1/products/${p.id}/prices`, { name: "Fixture price", type: "usage", currency: "USD", amount: 1 })).id,
  };
};
/** A request log of tenant A: logs are written off the request's path, so wait for one to appear. */
const requestLog = async (api: ApiClient): Promise<Params> => {
  await api.get("/v1/products?limit=1");
  const id = await poll(async () => {
    const res = await api.get("/v1/logs?limit=1");
    if (res.status !== 200) throw new Error(`GET /v1/logs: expected 200, got ${res.status} ${res.text.slice(0, 300)}`);
    return res.body.data[0]?.id as string | undefined;
  });
  if (!id) throw new Error("no request log appeared");
  return { id };
};
// Webhooks point at a closed local port (ALLOW_PRIVATE_URLS=true in tests): every delivery fails fast.
const WEBHOOK_BODY = { url: "http://127.0.0.1:9/hook", events: ["product.created"] };
const webhook = async (api: ApiClient): Promise<Params> => ({ id: (await created(api, "/v1/webhooks", WEBHOOK_BODY)).id });
const delivery = async (api: ApiClient): Promise<Params> => {
  const { id } = await webhook(api);
  const d = (await created(api, `/v1/webhooks/${id}/test`, {})) as { id: string; eventId: string };
  return { id, deliveryId: d.id, eventId: d.eventId };
};
/** A delivery that has failed an attempt, so that it may be retried. */
const failedDelivery = async (api: ApiClient): Promise<Params> => {
  const p = await delivery(api);
  const failed = await poll(async () => {
    const res = await api.get(`/v1/webhooks/${p.id}/deliveries/${p.deliveryId}`);
    return res.status === 200 && ["failed", "retrying"].includes(res.body.data.status);
  });
  if (!failed) throw new Error("the test delivery did not fail");
  return p;
};
const event = async (api: ApiClient): Promise<Params> => ({ id: (await delivery(api)).eventId });
/** A price and a new subscription of tenant A's project to it; a project has one current subscription, so any is canceled first. */
const subscription = async (api: ApiClient): Promise<Params> => {
  for (const s of (await api.get("/v1/subscriptions?status=active,past_due,unpaid")).body.data)
    await api.post(`/v1/subscriptions/${s.id}/cancel`, {});
  const { id } = await price(api);
  return { id: (await created(api, "/v1/subscriptions", { priceId: id })).id };
};
/** A finalised invoice: a subscription canceled at once gets its final invoice. */
const invoice = async (api: ApiClient): Promise<Params> => {
  const { id } = await subscription(api);
  await api.post(`/v1/subscriptions/${id}/cancel`, {});
  const inv = (await api.get(`/v1/invoices?subscriptionId=${id}`)).body.data[0];
  if (!inv) throw new Error("no final invoice after canceling");
  return { id: inv.id, lineId: "requests" };
};
const CARD = { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };
/** A final invoice of 1.00 USD (one call of a 1 USD/call product of A's own) charged to `card`: paid, or open when
 * the card fails every charge. */
const chargedInvoice = async (api: ApiClient, card: string) => {
  const { id: subId } = await subscription(api);
  const sub = (await api.get(`/v1/subscriptions/${subId}`)).body.data;
  const patched = await api.patch(`/v1/subscriptions/${subId}`, { paymentMethod: { card: { number: card } } });
  if (patched.status !== 200) throw new Error(`card: ${patched.status} ${patched.text.slice(0, 300)}`);
  const key = await api.post("/v1/api-keys", { name: "fixture caller", scopes: ["*"] });
  const call = await api.post("/v1/keys/verify", { key: key.body.data.key, product: sub.productId });
  if (call.body.data?.cost?.amount !== "1") throw new Error(`the fixture's call was not rated: ${call.text.slice(0, 300)}`);
  await api.post(`/v1/subscriptions/${subId}/cancel`, {});
  const inv = (await api.get(`/v1/invoices?subscriptionId=${subId}`)).body.data[0];
  if (!inv || inv.total !== 100) throw new Error(`no final invoice of 1.00 after canceling: ${JSON.stringify(inv)?.slice(0, 300)}`);
  return inv as { id: string; status: string };
};
/** An open invoice of A's (its card fails every charge): what "Pay now" pays. */
const openInvoice = async (api: ApiClient): Promise<Params> => ({ id: (await chargedInvoice(api, "4000000000000341")).id });
/** A paid invoice of a product A sells (to itself): what A may refund; with `refunds` refunds of 1 cent made. */
const paidInvoice =
  (refunds = 0) =>
  async (api: ApiClient): Promise<Params> => {
    const { id } = await chargedInvoice(api, "4242424242424242");
    for (let i = 0; i < refunds; i++) await created(api, `/v1/invoices/${id}/refunds`, { amount: 1 });
    return { id };
  };
/** A public API product of tenant A with an active price. */
const publishedPrice = async (api: ApiClient) => {
  const p = await createProduct(api, { name: "Security listed", type: "API" });
  const priceId = (await created(api, `/v1/products/${p.id}/prices`, { name: "Listed", type: "usage", currency: "USD", amount: 1 })).id;
  const res = await api.patch(`/v1/products/${p.id}`, { visibility: "public" });
  if (res.status !== 200) throw new Error(`publishing: ${res.status} ${res.text.slice(0, 300)}`);
  return { productId: p.id, priceId };
};
/** Another business subscribed to tenant A's product: A's customer. */
const customer = async (api: ApiClient): Promise<Params> => {
  const { priceId } = await publishedPrice(api);
  const other = await seedBusiness();
  await created(other.test, "/v1/subscriptions", { priceId, paymentMethod: CARD });
  return { id: other.businessId };
};
/** Tenant A's customer with its subscription to A's product (credits are granted to a subscription). */
const customerSubscription = async (api: ApiClient): Promise<Params> => {
  const { priceId } = await publishedPrice(api);
  const other = await seedBusiness();
  return { id: other.businessId, subscriptionId: (await created(other.test, "/v1/subscriptions", { priceId, paymentMethod: CARD })).id };
};
/** A meter event tenant A reported on its own project's subscription to its own product. */
const meterEvent = async (api: ApiClient): Promise<Params> => {
  const { productId, priceId } = await publishedPrice(api);
  const subscription = (await created(api, "/v1/subscriptions", { priceId })).id;
  return { id: (await created(api, "/v1/meter-events", { product: productId, subscription, quantity: 3 })).id };
};
const apiKey = async (api: ApiClient): Promise<Params> => ({
  id: (await created(api, "/v1/api-keys", { name: "Fixture key", scopes: ["products:read"] })).id,
});
/** A key made by automatic rotation, its value still sealed: rotated here as the scheduled job would. */
const autoRotatedKey = async (api: ApiClient): Promise<Params> => {
  const { id } = await apiKey(api);
  const rotated = await rotateKeyRow((await apiKeyRow(id))!, { createdBy: null, automatic: true });
  return { id: rotated!.row.id };
};

const OAUTH_CLIENT_BODY = { name: "Security app", redirectUris: ["https://app.example/callback"], scopes: ["products:read"] };

const AGENT_BODY = {
  name: "Security agent",
  role: "Checks access",
  systemPrompt: "Be careful.",
  model: { provider: "openai", model: "gpt-4o" },
};
const WORKFLOW_BODY = { name: "Security workflow", description: "", steps: [{ id: "a", name: "A", type: "agent", config: {} }] };
const FUNCTION_BODY = {
  name: "security",
  description: "",
  runtime: "nodejs20",
  entrypoint: "index.handler",
  source: { type: "inline", value: "export default () => 1" },
};
const TOOL_BODY = { name: "security", description: "", parameters: [] };
const TASK_BODY = { title: "Security task", priority: 2 };
const EXECUTION_BODY = { input: {} };
const teamBody = async (api: ApiClient) => ({
  name: "Security team",
  purpose: "p",
  agents: [(await created(api, "/v1/agents", AGENT_BODY)).id],
  orchestration: "sequential",
  communication: "broadcast",
});
const triggerBody = async (api: ApiClient) => ({
  name: "Security trigger",
  type: "manual",
  config: {},
  target: { type: "workflow", id: (await created(api, "/v1/workflows", WORKFLOW_BODY)).id },
});
const APP_BODY = { type: "Ops", name: "Security app" };
const made =
  (path: string, body: Record<string, unknown> | ((api: ApiClient) => Promise<Record<string, unknown>>)) =>
  async (api: ApiClient): Promise<Params> => ({ id: (await created(api, path, typeof body === "function" ? await body(api) : body)).id });

runCommonRouteTests(ROUTES, {
  params: {
    "/v1/products/{id}": product,
    "/v1/products/{id}/activate": product,
    "/v1/products/{id}/deactivate": product,
    "/v1/products/{id}/features": product,
    "/v1/products/{id}/prices": product,
    "/v1/products/{id}/call-stats": product,
    "/v1/products/{id}/openapi/refresh": documentedProduct,
    "/v1/features/{id}": feature,
    "/v1/prices/{id}": price,
    "/v1/api-keys/{id}": apiKey,
    "/v1/api-keys/{id}/rotate": apiKey,
    "/v1/api-keys/{id}/reveal": autoRotatedKey,
    "/v1/logs/{id}": requestLog,
    "/v1/webhooks/{id}": webhook,
    "/v1/webhooks/{id}/test": webhook,
    "/v1/webhooks/{id}/rotate-secret": webhook,
    "/v1/webhooks/{id}/deliveries": webhook,
    "/v1/webhooks/{id}/deliveries/{deliveryId}": delivery,
    "/v1/webhooks/{id}/deliveries/{deliveryId}/retry": failedDelivery,
    "/v1/events/{id}": event,
    "/v1/oauth-clients/{id}": made("/v1/oauth-clients", OAUTH_CLIENT_BODY),
    "/v1/agents/{id}": made("/v1/agents", AGENT_BODY),
    "/v1/agent-teams/{id}": made("/v1/agent-teams", teamBody),
    "/v1/workflows/{id}": made("/v1/workflows", WORKFLOW_BODY),
    "/v1/functions/{id}": made("/v1/functions", FUNCTION_BODY),
    "/v1/triggers/{id}": made("/v1/triggers", triggerBody),
    "/v1/tools/{id}": made("/v1/tools", TOOL_BODY),
    "/v1/tasks/{id}": made("/v1/tasks", TASK_BODY),
    "/v1/executions/{id}": made("/v1/executions", EXECUTION_BODY),
    "/v1/subscriptions/{id}": subscription,
    "/v1/subscriptions/{id}/cancel": subscription,
    "/v1/subscriptions/{id}/credits": subscription,
    "/v1/subscriptions/{id}/credit-ledger": subscription,
    "/v1/customers/{id}/credits": customerSubscription,
    "/v1/meter-events/{id}/amend": meterEvent,
    "/v1/meter-events/{id}/void": meterEvent,
    "/v1/invoices/{id}": invoice,
    "/v1/invoices/{id}/lines/{lineId}/usage": invoice,
    "/v1/invoices/{id}/pay": openInvoice,
    // POST refunds once more; GET walks a collection of three (the walk reads a cursor page as the first of the rest).
    "/v1/invoices/{id}/refunds": paidInvoice(3),
    "/v1/catalog/products/{id}": product,
    "/v1/products/{id}/gateway-secret/rotate": async (api: ApiClient): Promise<Params> => ({ id: (await publishedPrice(api)).productId }),
    "/v1/customers/{id}": customer,
    "/v1/customers/{id}/usage": customer,
    "/v1/apps/{id}": made("/v1/apps", APP_BODY),
  },
  bodies: {
    "POST /v1/products": { name: "Security product", type: "API" },
    "PATCH /v1/products/{id}": { description: "patched" },
    "POST /v1/products/{id}/features": { name: "Security feature" },
    "PATCH /v1/features/{id}": { name: "Renamed feature" },
    "POST /v1/products/{id}/prices": { name: "Security price", type: "usage", currency: "USD", amount: 2 },
    "PATCH /v1/prices/{id}": { name: "Renamed price" },
    "POST /v1/api-keys": { name: "Security key", scopes: ["products:read"] },
    "PATCH /v1/api-keys/{id}": { name: "Renamed key" },
    "POST /v1/api-keys/{id}/rotate": {},
    "POST /v1/webhooks": WEBHOOK_BODY,
    "PATCH /v1/webhooks/{id}": { description: "patched" },
    "POST /v1/oauth-clients": OAUTH_CLIENT_BODY,
    "PATCH /v1/oauth-clients/{id}": { name: "Renamed app" },
    "POST /v1/agents": AGENT_BODY,
    "PATCH /v1/agents/{id}": { timeout: 60 },
    "POST /v1/agent-teams": (_: Params, api: ApiClient) => teamBody(api),
    "PATCH /v1/agent-teams/{id}": { maxIterations: 3 },
    "POST /v1/workflows": WORKFLOW_BODY,
    "PATCH /v1/workflows/{id}": { active: false },
    "POST /v1/functions": FUNCTION_BODY,
    "PATCH /v1/functions/{id}": { memory: 256 },
    "POST /v1/triggers": (_: Params, api: ApiClient) => triggerBody(api),
    "PATCH /v1/triggers/{id}": { enabled: false },
    "POST /v1/tools": TOOL_BODY,
    "PATCH /v1/tools/{id}": { dangerous: true },
    "POST /v1/tasks": TASK_BODY,
    "PATCH /v1/tasks/{id}": { status: "in_progress" },
    "POST /v1/executions": EXECUTION_BODY,
    "PATCH /v1/executions/{id}": { status: "running" },
    "POST /v1/apps": APP_BODY,
    "PATCH /v1/apps/{id}": { description: "patched" },
    // A project has one current subscription: the fixture cancels tenant A's before subscribing again.
    "POST /v1/subscriptions": async (_: Params, api: ApiClient) => {
      for (const s of (await api.get("/v1/subscriptions?status=active,past_due,unpaid")).body.data)
        await api.post(`/v1/subscriptions/${s.id}/cancel`, {});
      return { priceId: (await price(api)).id };
    },
    "PATCH /v1/subscriptions/{id}": { metadata: { patched: "yes" } },
    "POST /v1/subscriptions/{id}/cancel": {},
    "POST /v1/subscriptions/{id}/credits": { amount: 1, paymentMethod: CARD },
    "POST /v1/customers/{id}/credits": (p: Params) => ({ subscription: p.subscriptionId, amount: 1, note: "Security grant" }),
    "POST /v1/meter-events/{id}/amend": { quantity: 1, reason: "Security amendment" },
    "POST /v1/invoices/{id}/refunds": { amount: 1, reason: "requested_by_customer" },
    "POST /v1/payment-methods": { paymentMethod: "pm_card_visa" },
    "POST /v1/meter-events/{id}/void": { reason: "Security void" },
    "POST /v1/meter-events/backfill": async (_: Params, api: ApiClient) => {
      const { productId, priceId } = await publishedPrice(api);
      return { events: [{ product: productId, subscription: (await created(api, "/v1/subscriptions", { priceId })).id, quantity: 1 }] };
    },
    // An unknown key: the verification itself succeeds (200, valid: false).
    "POST /v1/keys/verify": async (_: Params, api: ApiClient) => ({ key: `sk_test_${"z".repeat(40)}`, product: (await product(api)).id }),
    // Tenant A's own project subscribes to A's product, which A then meters.
    "POST /v1/meter-events": async (_: Params, api: ApiClient) => {
      const { productId, priceId } = await publishedPrice(api);
      return { product: productId, subscription: (await created(api, "/v1/subscriptions", { priceId })).id, quantity: 1 };
    },
  },
  setup: {
    // The upcoming invoice exists while the project has a current subscription.
    "GET /v1/invoices/upcoming": async (api: ApiClient) => {
      if (!(await api.get("/v1/subscriptions?status=active,past_due,unpaid")).body.data.length) await subscription(api);
    },
  },
  // Documentation: the OpenAPI document and the automation resources' JSON Schemas.
  // The catalogue is for any valid key (a key limited to calling one product may still browse it).
  anyKeyRoutes: ["GET /v1/catalog/products", "GET /v1/catalog/products/{id}"],
  publicRoutes: ["GET /v1/openapi.json", "GET /v1/schemas", "GET /v1/schemas/{kind}", "GET /v1/apps/schemas/{type}"],
});
