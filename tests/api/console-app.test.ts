// What the console's app editor relies on in /v1/apps: a PATCH whose nested `null` puts a field back to its default
// (a JSON merge patch; the editor sends an emptied box as null), and the console app (lib/apps/console-app.ts),
// created from the defaults, listed and changed like any app, marked by a slug nobody else may take and it keeps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ensureConsoleApp, readConsoleApp } from "@/lib/apps/console-app";
import { consoleSlugOf } from "@/lib/apps/app-rules";
import { seedBusiness, expectError } from "../helpers/api";

test("a nested null in a PATCH removes the value, so the type's default applies again", async () => {
  const biz = await seedBusiness();
  const created = await biz.test.post("/v1/apps", {
    type: "Developer",
    name: "Null merge",
    config: { apiBaseUrl: "http://127.0.0.1:4999/gw/x", showLogs: false },
    views: { usage: { showCosts: true, periods: ["day"] } },
  });
  assert.equal(created.status, 201, created.text);
  const id = created.body.data.id;
  const patched = await biz.test.patch(`/v1/apps/${id}`, { config: { apiBaseUrl: null, showLogs: null }, views: { usage: null } });
  assert.equal(patched.status, 200, patched.text);
  const app = patched.body.data;
  assert.equal(app.config.apiBaseUrl, undefined, "an optional value is cleared");
  assert.equal(app.config.showLogs, true, "a switch goes back to its default");
  assert.equal(app.config.showWebhooks, true, "the rest of config is kept");
  assert.deepEqual(app.views.usage, {
    showRateLimits: true,
    showQuotas: true,
    showCosts: false,
    periods: ["hour", "day", "week", "month"],
  });
  const event = (await biz.test.get("/v1/events?type=app.updated")).body.data.find((e: { data: { id: string } }) => e.data.id === id);
  assert.ok(event, "the PATCH emitted app.updated");
  assert.equal(event.previousAttributes.config.showLogs, false);
});

test("the console app: defaults until created, then listed, edited by PATCH, and its slug is its own", async () => {
  const biz = await seedBusiness();
  const tenant = { businessId: biz.businessId, environment: "test" as const };
  const before = await readConsoleApp(tenant);
  assert.equal(before.id, null, "no record until the Apps page needs one");
  assert.equal(before.app.config.showWebhooks, true);

  const made = await ensureConsoleApp(tenant);
  assert.match(made.id!, /^app_/);
  assert.equal((await ensureConsoleApp(tenant)).id, made.id, "created once");
  const slug = consoleSlugOf(biz.businessId, "test");
  assert.match(slug, /^console-biz-[0-9a-z]{26}-test$/);

  const listed = await biz.test.get(`/v1/apps?slug=${slug}`);
  assert.equal(listed.status, 200);
  assert.equal(listed.body.data.length, 1);
  assert.equal(listed.body.data[0].type, "Developer");
  assert.equal(listed.body.data[0].status, "draft");
  assert.equal((await biz.live.get(`/v1/apps?slug=${slug}`)).body.data.length, 0, "the live console is another record");

  const off = await biz.test.patch(`/v1/apps/${made.id}`, { name: "Acme console", config: { showWebhooks: false } });
  assert.equal(off.status, 200, off.text);
  const read = await readConsoleApp(tenant);
  assert.equal(read.app.name, "Acme console");
  assert.equal(read.app.config.showWebhooks, false);

  const moved = await biz.test.patch(`/v1/apps/${made.id}`, { slug: "my-console" });
  assert.equal(expectError(moved, 400, "INVALID_FIELD").field, "slug");
  const published = await biz.test.patch(`/v1/apps/${made.id}`, { status: "published" });
  assert.equal(expectError(published, 400, "INVALID_FIELD").field, "status");
});

test("console slugs are reserved: no app may be created at one or moved to one", async () => {
  const biz = await seedBusiness();
  const other = await seedBusiness();
  const theirs = consoleSlugOf(other.businessId, "test");
  const ours = consoleSlugOf(biz.businessId, "production");
  for (const slug of [theirs, ours]) {
    const res = await biz.test.post("/v1/apps", { type: "Developer", name: "Squatter", slug });
    assert.equal(expectError(res, 409, "ALREADY_EXISTS").field, "slug");
  }
  const app = await biz.test.post("/v1/apps", { type: "Dashboard", name: "Metrics" });
  assert.equal(app.status, 201, app.text);
  const moved = await biz.test.patch(`/v1/apps/${app.body.data.id}`, { slug: theirs });
  expectError(moved, 409, "ALREADY_EXISTS");
});
