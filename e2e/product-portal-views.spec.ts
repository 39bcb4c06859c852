import http from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import { test, expect, type Page } from "@playwright/test";
import { bearer, createKey, hydrated, newAccount, signUp, startReceiver } from "./helpers";

// Issue 19: a product portal's own views for a subscriber. Provider A publishes two API products (each gets its
// portal); developer B, signed out, is asked to sign in; signed in without a subscription, to subscribe; then B
// subscribes to both, calls each through the gateway, and sees in /p/{slug} (overview, usage, logs with the drawer,
// webhooks, settings) only the first product's calls. A switched-off view is a 404. Axe on every view, light and dark.

const CARD = { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };

async function seriousViolations(page: Page) {
  await page.waitForLoadState("networkidle").catch(() => {});
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
    found.push(
      ...result.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${scheme} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`),
    );
  }
  await page.emulateMedia({ colorScheme: null });
  return found;
}

/** Reloads until `check` passes: calls are recorded a moment after they are made. */
async function eventually(page: Page, check: () => Promise<void>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await page.waitForTimeout(700);
      await page.reload();
    }
  }
}

test("a subscriber sees only this product's usage, logs and webhooks in its portal; a switched-off view is a 404", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const upstream = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const receiver = await startReceiver();
  const tag = Date.now().toString(36);

  // ── A publishes two products; the first plan has a rate limit and a quota.
  await signUp(page, newAccount("views-provider"));
  const provider = bearer(await createKey(page, "Provider automation"));
  async function publish(name: string, price: Record<string, unknown>) {
    const created = await request.post("/v1/products", {
      headers: provider,
      data: { name: `${name} ${tag}`, type: "API", api: { upstreamUrl, sandboxUpstreamUrl: upstreamUrl } },
    });
    expect(created.status(), await created.text()).toBe(201);
    const product = (await created.json()).data;
    const p = await request.post(`/v1/products/${product.id}/prices`, {
      headers: provider,
      data: { name: "Starter", type: "usage", currency: "USD", amount: 0.01, ...price },
    });
    expect(p.status(), await p.text()).toBe(201);
    const published = await request.patch(`/v1/products/${product.id}`, { headers: provider, data: { visibility: "public" } });
    expect(published.status(), await published.text()).toBe(200);
    return { slug: (await published.json()).data.slug as string, priceId: (await p.json()).data.id as string };
  }
  const one = await publish("Tides", { rateLimit: { limit: 100, windowSeconds: 60 }, monthlyQuota: 1000 });
  const two = await publish("Winds", {});
  const apps = (await (await request.get(`/v1/apps?slug=${one.slug}`, { headers: provider })).json()).data;
  expect(apps).toHaveLength(1);
  // The usage view shows costs too (off by default).
  const shaped = await request.patch(`/v1/apps/${apps[0].id}`, { headers: provider, data: { views: { usage: { showCosts: true } } } });
  expect(shaped.status(), await shaped.text()).toBe(200);

  // ── B, signed out: each view asks to sign in inside this portal.
  const context = await browser.newContext();
  const b = await context.newPage();
  await b.goto(`/p/${one.slug}/usage`);
  await expect(b.getByTestId("portal-sign-in-needed")).toContainText("Sign in to see your usage");
  await expect(b.getByRole("link", { name: /Sign in to see/ })).toHaveAttribute(
    "href",
    `/p/${one.slug}/signin?callbackUrl=${encodeURIComponent(`/p/${one.slug}/usage`)}`,
  );
  expect(await seriousViolations(b)).toEqual([]);

  // ── Signed in, not subscribed: a way to subscribe.
  await signUp(b, newAccount("views-consumer"));
  const consumerKey = await createKey(b, "Consumer key");
  await b.goto(`/p/${one.slug}/logs`);
  await expect(b.getByTestId("portal-subscribe-needed")).toContainText("no subscription");
  await expect(b.getByRole("link", { name: /^Subscribe to/ })).toHaveAttribute("href", `/p/${one.slug}/subscribe`);

  // ── B subscribes to both and calls each: two calls of the first product, one of the second.
  for (const priceId of [one.priceId, two.priceId]) {
    const sub = await request.post("/v1/subscriptions", { headers: bearer(consumerKey), data: { priceId, paymentMethod: CARD } });
    expect(sub.status(), await sub.text()).toBe(201);
  }
  for (const path of [`/gw/${one.slug}/tides/oslo`, `/gw/${one.slug}/tides/bergen`, `/gw/${two.slug}/winds-elsewhere`]) {
    const res = await request.get(path, { headers: bearer(consumerKey) });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  }

  // ── Usage: this product's two calls against the plan's rate limit and quota, with the cost so far.
  await b.goto(`/p/${one.slug}/usage`);
  await eventually(b, async () => {
    await expect(b.getByTestId("usage-total")).toHaveText("2", { timeout: 2_000 });
    await expect(b.getByTestId("plan-calls")).toHaveText("2", { timeout: 2_000 });
  });
  await expect(b.getByTestId("plan-rate-limit")).toHaveText("100 calls per minute");
  await expect(b.getByTestId("plan-quota")).toContainText("2 of 1,000 calls");
  await expect(b.getByTestId("plan-cost")).toContainText("USD");
  await expect(b.getByRole("radio")).toHaveCount(4);
  expect(await seriousViolations(b)).toEqual([]);

  // ── Logs: the two calls of this product only; the drawer with the gateway/upstream split.
  await b.goto(`/p/${one.slug}/logs`);
  await expect(b.getByTestId("log-row")).toHaveCount(2, { timeout: 20_000 });
  await expect(b.getByText("winds-elsewhere")).toHaveCount(0);
  await b.getByRole("link", { name: `/gw/${one.slug}/tides/oslo` }).click();
  const drawer = b.getByTestId("log-drawer");
  await expect(drawer.getByTestId("log-detail")).toContainText(`/gw/${one.slug}/tides/oslo`);
  await expect(drawer.getByTestId("log-timing")).toContainText(/gateway [0-9.]+ ms · upstream [0-9.]+ ms/);
  expect(await seriousViolations(b)).toEqual([]);
  // Another product's call is not found through this portal, even by its id.
  const otherLog = (await (await request.get("/v1/logs?limit=100", { headers: bearer(consumerKey) })).json()).data.find(
    (l: { path: string }) => l.path.includes("winds-elsewhere"),
  );
  expect(otherLog).toBeTruthy();
  const leaked = await b.request.get(`/api/portal/logs/${otherLog.id}?portal=${one.slug}`);
  expect(leaked.status()).toBe(404);

  // ── Webhooks: the subscription's events only; add an endpoint, send it a test event.
  await b.goto(`/p/${one.slug}/webhooks`);
  await hydrated(b.getByRole("button", { name: "Add endpoint" }));
  await expect(b.getByRole("checkbox", { name: "subscription.created" })).toBeChecked();
  await expect(b.getByRole("checkbox", { name: /everything/ })).toHaveCount(0);
  await expect(b.getByRole("checkbox", { name: "product.created" })).toHaveCount(0);
  await expect(b.getByTestId("payload-examples")).toContainText("subscription.canceled");
  await b.getByLabel("Endpoint URL").fill(receiver.url("/tides-hooks"));
  await b.getByRole("button", { name: "Add endpoint" }).click();
  await expect(b.getByTestId("webhook-secret")).toBeVisible();
  await b.getByRole("button", { name: "Done" }).click();
  await expect(b.getByText(receiver.url("/tides-hooks"))).toBeVisible();
  await b.getByRole("button", { name: "Send test event" }).click();
  await expect(b.getByText("Test event sent.")).toBeVisible();
  await receiver.waitFor((r) => r.path === "/tides-hooks" && r.body.includes("webhook.test"));
  expect(await seriousViolations(b)).toEqual([]);

  // ── Overview: the dashboard above the landing, counting this product's calls only.
  await b.goto(`/p/${one.slug}`);
  await expect(b.getByTestId("portal-dashboard")).toBeVisible();
  await expect(b.getByTestId("dashboard-calls")).toHaveText("2");
  await expect(b.getByTestId("dashboard-keys")).toHaveText("1");
  await expect(b.getByTestId("portal-product")).toHaveCount(1);
  expect(await seriousViolations(b)).toEqual([]);

  // ── Settings: the account and the subscription, with cancel behind the confirm dialog.
  await b.goto(`/p/${one.slug}/settings`);
  await expect(b.getByTestId("portal-account")).toContainText("@");
  await expect(b.getByTestId("portal-subscription")).toContainText("Starter");
  await expect(b.getByTestId("portal-subscription")).toHaveCount(1);
  expect(await seriousViolations(b)).toEqual([]);
  await (await hydrated(b.getByRole("button", { name: "Cancel now" }))).click();
  const dialog = b.getByRole("alertdialog");
  await expect(dialog).toContainText("Cancel the subscription now?");
  await dialog.getByRole("button", { name: "Cancel now" }).click();
  await expect(b.getByTestId("portal-subscription")).toContainText("canceled");

  // ── The provider switches the usage view off: it is a 404.
  const off = await request.patch(`/v1/apps/${apps[0].id}`, { headers: provider, data: { config: { showUsage: false } } });
  expect(off.status(), await off.text()).toBe(200);
  const gone = await b.goto(`/p/${one.slug}/usage`);
  expect(gone?.status()).toBe(404);

  await context.close();
  await receiver.close();
  upstream.close();
});
