// Apps as stored records (issue 19): every app type created with its defaults applied and returned, per-type
// validation naming the field, products of one's own business only, deployment-wide slugs, the collection rules,
// events and audit entries, tenant isolation, the JSON Schemas of the types, and the default Developer app a
// product gets when it is published.
import { test } from "node:test";
import assert from "node:assert/strict";
import { APP_TYPE_NAMES } from "@/lib/apps/app-type-names";
import { seedBusiness, createProduct, expectError, request, type ApiClient } from "../helpers/api";
import { poll } from "../helpers/db";

let n = 0;
const uniqueSlug = (base: string) => `${base}-${process.pid}-${Date.now().toString(36)}-${++n}`;

async function createApp(api: ApiClient, body: Record<string, unknown>) {
  const res = await api.post("/v1/apps", body);
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

test("every app type is created with its spec defaults applied and returned", async () => {
  const biz = await seedBusiness();
  for (const type of APP_TYPE_NAMES) {
    const app = await createApp(biz.test, { type, name: `${type} console` });
    assert.match(app.id, /^app_[0-9A-Z]{26}$/);
    assert.equal(app.object, "app");
    assert.equal(app.type, type);
    assert.equal(app.status, "draft");
    assert.ok(app.defaultViews.length > 0, `${type}: default views`);
    assert.deepEqual(app.shell, { sidebar: true, header: true, sidebarCollapsed: false });
    assert.equal(typeof app.config, "object");
    const read = await biz.test.get(`/v1/apps/${app.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data, app);
  }
  const dashboard = (await biz.test.get("/v1/apps?type=Dashboard")).body.data[0];
  assert.deepEqual(dashboard.config, {
    metrics: ["revenue", "users", "growth", "retention"],
    defaultPeriod: "month",
    realtime: false,
    charts: [],
  });
  assert.deepEqual(dashboard.defaultViews, ["overview", "analytics", "reports"]);
  const booking = (await biz.test.get("/v1/apps?type=Booking")).body.data[0];
  assert.deepEqual(booking.config.durationOptions, [15, 30, 45, 60]);
  assert.equal(booking.config.enableWaitingList, false);
  const developer = (await biz.test.get("/v1/apps?type=Developer")).body.data[0];
  assert.equal(developer.config.showDocs, true);
  assert.deepEqual(developer.config.apiVersions, ["v1"]);
  assert.equal(developer.views.usage.showCosts, false);
  assert.equal(developer.views.docs.enableTryIt, true);
});

test("POST, PATCH (config merged, defaults kept), GET and DELETE a Developer app, with events and audit entries", async () => {
  const biz = await seedBusiness();
  const product = await createProduct(biz.test, { name: "Weather" });
  const slug = uniqueSlug("weather-portal");
  const app = await createApp(biz.test, {
    type: "Developer",
    name: "Weather developers",
    description: "Forecasts for developers",
    slug,
    products: [product.id, product.id],
    theme: { preset: "emerald", mode: "dark", custom: { accent: "#0f766e" } },
    config: { showWebhooks: false, apiVersions: ["v1", "v2"] },
    views: { docs: { languages: ["shell", "python"] } },
  });
  assert.equal(app.slug, slug);
  assert.deepEqual(app.products, [product.id]);
  assert.equal(app.config.showWebhooks, false);
  assert.equal(app.config.showDocs, true);
  assert.deepEqual(app.views.docs.languages, ["shell", "python"]);
  assert.equal(app.views.docs.enableTryIt, true);
  assert.deepEqual(app.theme, { preset: "emerald", mode: "dark", custom: { accent: "#0f766e" } });

  const patched = await biz.test.patch(`/v1/apps/${app.id}`, { status: "published", config: { showLogs: false }, description: null });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.status, "published");
  assert.equal(patched.body.data.config.showLogs, false);
  assert.equal(patched.body.data.config.showWebhooks, false, "a PATCH merges into the stored config");
  assert.deepEqual(patched.body.data.config.apiVersions, ["v1", "v2"]);
  assert.equal(patched.body.data.description, null);

  const del = await biz.test.delete(`/v1/apps/${app.id}`);
  assert.equal(del.status, 204);
  expectError(await biz.test.get(`/v1/apps/${app.id}`), 404, "RESOURCE_NOT_FOUND");

  const types = (await biz.test.get("/v1/events?type=app.created,app.updated,app.deleted&limit=100")).body.data
    .filter((e: { data: { id: string } }) => e.data.id === app.id)
    .map((e: { type: string }) => e.type)
    .sort();
  assert.deepEqual(types, ["app.created", "app.deleted", "app.updated"]);
  const updated = (await biz.test.get("/v1/events?type=app.updated")).body.data[0];
  assert.equal(updated.previousAttributes.status, "draft");
  const actions = await poll(async () => {
    const rows = (await biz.test.get(`/v1/audit-logs?targetId=${app.id}`)).body.data as { action: string }[];
    return rows.length === 3 ? rows.map((r) => r.action).sort() : null;
  });
  assert.deepEqual(actions, ["app.created", "app.deleted", "app.updated"]);
});

test("bad input: an unknown type, a bad or unknown config field, an unknown view, a non-colour theme, a type change", async () => {
  const biz = await seedBusiness();
  let e = expectError(await biz.test.post("/v1/apps", { type: "Spreadsheet", name: "x" }), 400, "INVALID_TYPE");
  assert.equal(e.field, "type");
  assert.match(e.suggestion ?? "", /Developer/);
  e = expectError(await biz.test.post("/v1/apps", { type: "Dashboard", name: "x", config: { realtime: "yes" } }), 400, "INVALID_FIELD");
  assert.equal(e.field, "config.realtime");
  e = expectError(await biz.test.post("/v1/apps", { type: "Developer", name: "x", config: { showDoc: true } }), 400, "INVALID_FIELD");
  assert.equal(e.field, "config.showDoc");
  assert.match(e.message, /Unknown field/);
  e = expectError(
    await biz.test.post("/v1/apps", { type: "Developer", name: "x", views: { usage: { periods: ["day", "week", "decade"] } } }),
    400,
    "INVALID_FIELD",
  );
  assert.equal(e.field, "views.usage.periods[2]");
  e = expectError(await biz.test.post("/v1/apps", { type: "CRM", name: "x", defaultViews: ["contacts", "weather"] }), 400, "INVALID_FIELD");
  assert.equal(e.field, "defaultViews[1]");
  e = expectError(
    await biz.test.post("/v1/apps", { type: "SaaS", name: "x", theme: { custom: { accent: "red; background: url(https://x.test/a)" } } }),
    400,
    "INVALID_FIELD",
  );
  assert.equal(e.field, "theme.custom.accent");
  e = expectError(await biz.test.post("/v1/apps", { type: "SaaS", name: "x", owner: "me" }), 400, "INVALID_FIELD");
  assert.equal(e.field, "owner");
  e = expectError(await biz.test.post("/v1/apps", { type: "SaaS" }), 400, "MISSING_REQUIRED_FIELD");
  assert.equal(e.field, "name");
  const app = await createApp(biz.test, { type: "SaaS", name: "Workspace" });
  e = expectError(await biz.test.patch(`/v1/apps/${app.id}`, { type: "CRM" }), 400, "INVALID_FIELD");
  assert.equal(e.field, "type");
  e = expectError(await biz.test.patch(`/v1/apps/${app.id}`, { config: { pricingTiers: "gold" } }), 400, "INVALID_FIELD");
  assert.equal(e.field, "config.pricingTiers");
  assert.equal((await biz.test.get(`/v1/apps/${app.id}`)).body.data.config.pricingTiers.length, 0, "a refused PATCH changes nothing");
});

test("products must be the business's own (another's is a 404 naming its place); a slug taken anywhere in the deployment is a 409", async () => {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const foreign = await createProduct(b.test, { name: "Not yours" });
  const own = await createProduct(a.test, { name: "Yours" });
  let e = expectError(
    await a.test.post("/v1/apps", { type: "Developer", name: "x", products: [own.id, foreign.id] }),
    404,
    "RESOURCE_NOT_FOUND",
  );
  assert.equal(e.field, "products[1]");
  e = expectError(await a.test.post("/v1/apps", { type: "Developer", name: "x", products: ["nonsense"] }), 404, "RESOURCE_NOT_FOUND");
  assert.equal(e.field, "products[0]");
  // A live-environment product is not the test key's either.
  const live = await createProduct(a.live, { name: "Live product" });
  expectError(await a.test.post("/v1/apps", { type: "Developer", name: "x", products: [live.id] }), 404, "RESOURCE_NOT_FOUND");

  const slug = uniqueSlug("shared-name");
  await createApp(a.test, { type: "Ops", name: "Ops", slug });
  e = expectError(await b.test.post("/v1/apps", { type: "Ops", name: "Ops", slug }), 409, "ALREADY_EXISTS");
  assert.equal(e.field, "slug");
  const other = await createApp(a.test, { type: "Ops", name: "Ops two" });
  expectError(await a.test.patch(`/v1/apps/${other.id}`, { slug }), 409, "ALREADY_EXISTS");
  // Another business's product slug is not free for an app either.
  const productSlug = uniqueSlug("their-api");
  assert.equal((await b.test.patch(`/v1/products/${foreign.id}`, { slug: productSlug })).status, 200);
  expectError(await a.test.post("/v1/apps", { type: "Developer", name: "x", slug: productSlug }), 409, "ALREADY_EXISTS");
  // The app types' own slugs are the gallery's demo shells (/apps/dashboard): no app may take one.
  expectError(await a.test.post("/v1/apps", { type: "Dashboard", name: "x", slug: "dashboard" }), 409, "ALREADY_EXISTS");
  const gallery = await createApp(a.test, { type: "Dashboard", name: "Dashboard" });
  assert.notEqual(gallery.slug, "dashboard");
  // Without a slug one is made from the name.
  const named = await createApp(a.test, { type: "Ops", name: "Night Watch" });
  assert.match(named.slug, /^night-watch(-\d+)?$/);
});

test("tenant isolation: another business or environment sees no app of this one", async () => {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const app = await createApp(a.test, { type: "Support", name: "Help desk" });
  expectError(await b.test.get(`/v1/apps/${app.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await b.test.patch(`/v1/apps/${app.id}`, { name: "Mine now" }), 404, "RESOURCE_NOT_FOUND");
  expectError(await b.test.delete(`/v1/apps/${app.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await a.live.get(`/v1/apps/${app.id}`), 404, "RESOURCE_NOT_FOUND");
  assert.equal((await b.test.get("/v1/apps")).body.data.length, 0);
  assert.equal((await a.live.get("/v1/apps")).body.data.length, 0);
  assert.equal((await a.test.get(`/v1/apps/${app.id}`)).body.data.name, "Help desk");
});

test("the collection rules: filters, sort, fields, q and cursor", async () => {
  const biz = await seedBusiness();
  for (const [type, name] of [
    ["Ops", "Alpha ops"],
    ["Ops", "Beta ops"],
    ["CRM", "Gamma sales"],
  ])
    await createApp(biz.test, { type, name, status: name.startsWith("Beta") ? "published" : "draft" });
  const byName = await biz.test.get("/v1/apps?sort=name&fields=name,type");
  assert.deepEqual(
    byName.body.data.map((a: { name: string }) => a.name),
    ["Alpha ops", "Beta ops", "Gamma sales"],
  );
  assert.deepEqual(Object.keys(byName.body.data[0]).sort(), ["id", "name", "type"]);
  assert.equal((await biz.test.get("/v1/apps?type=Ops")).body.data.length, 2);
  assert.equal((await biz.test.get("/v1/apps?status=published")).body.data[0].name, "Beta ops");
  assert.equal((await biz.test.get("/v1/apps?q=gamma")).body.data.length, 1);
  const page1 = await biz.test.get("/v1/apps?limit=2");
  assert.equal(page1.body.pagination.total, 3);
  assert.equal(page1.body.pagination.hasMore, true);
  const page2 = await biz.test.get(`/v1/apps?limit=2&cursor=${encodeURIComponent(page1.body.pagination.nextCursor)}`);
  assert.equal(page2.body.data.length, 1);
  expectError(await biz.test.get("/v1/apps?colour=red"), 400, "INVALID_FILTER");
});

test("GET /v1/apps/schemas/{type} serves each type's JSON Schema without a key; an unknown type is a 404", async () => {
  const res = await request("GET", "/v1/apps/schemas/Developer");
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.title, "Developer app");
  assert.equal(res.body.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.equal(res.body.properties.config.properties.showDocs.default, true);
  assert.equal(res.body.properties.config.additionalProperties, false);
  assert.deepEqual(res.body.properties.views.properties.usage.properties.periods.items.enum, ["hour", "day", "week", "month"]);
  assert.ok(res.body.required.includes("type") && res.body.required.includes("name"));
  const crm = await request("GET", "/v1/apps/schemas/crm");
  assert.equal(crm.body.properties.config.properties.currency.default, "USD");
  const portal = await request("GET", "/v1/apps/schemas/client-portal");
  assert.equal(portal.body.title, "ClientPortal app");
  expectError(await request("GET", "/v1/apps/schemas/spreadsheet"), 404, "RESOURCE_NOT_FOUND");
});

test("publishing a product gives it a published default Developer app at its slug, pointing at its gateway, once", async () => {
  const biz = await seedBusiness();
  const slug = uniqueSlug("forecast-api");
  const product = await createProduct(biz.test, { name: "Forecast API", slug });
  const price = await biz.test.post(`/v1/products/${product.id}/prices`, {
    name: "Pay as you go",
    type: "usage",
    currency: "USD",
    amount: 1,
  });
  assert.equal(price.status, 201, price.text);
  assert.equal((await biz.test.get("/v1/apps")).body.data.length, 0, "no app before publishing");
  assert.equal((await biz.test.patch(`/v1/products/${product.id}`, { visibility: "public" })).status, 200);
  const apps = (await biz.test.get("/v1/apps?type=Developer")).body.data;
  assert.equal(apps.length, 1);
  const app = apps[0];
  assert.equal(app.slug, slug);
  assert.equal(app.status, "published");
  assert.deepEqual(app.products, [product.id]);
  assert.equal(app.name, "Forecast API");
  assert.match(app.config.apiBaseUrl, new RegExp(`^http://[^/]+/gw/${slug}$`));
  // Publishing again (private, then public) does not make a second one.
  await biz.test.patch(`/v1/products/${product.id}`, { visibility: "private" });
  await biz.test.patch(`/v1/products/${product.id}`, { visibility: "public" });
  assert.equal((await biz.test.get("/v1/apps?type=Developer")).body.data.length, 1);
  const created = (await biz.test.get("/v1/events?type=app.created")).body.data;
  assert.equal(created.length, 1);
});
