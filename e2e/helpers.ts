// Shared steps for the portal's browser tests: unique accounts, signing up, reading magic links from the SMTP
// sink (e2e/smtp-sink.mjs), creating keys through the UI, a real webhook receiver, screenshots, and polling.
import http from "node:http";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";

const SINK = `http://127.0.0.1:${Number(process.env.E2E_SMTP_PORT ?? 2525) + 1}`;

/** A fresh, unique e-mail address (lower case, as the app stores them). */
export function uniqueEmail(prefix = "dev"): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}@example.com`;
}

export const PASSWORD = "correct horse battery staple";

export interface Account {
  name: string;
  businessName: string;
  email: string;
  password: string;
}

export function newAccount(prefix = "dev"): Account {
  const tag = randomBytes(2).toString("hex");
  return { name: `Dev ${tag}`, businessName: `Business ${prefix} ${tag}`, email: uniqueEmail(prefix), password: PASSWORD };
}

/**
 * Waits until React has hydrated `locator`'s element (its event handlers are attached). A click on server-rendered
 * HTML before that is lost, which made clicks right after a navigation flaky.
 */
export async function hydrated(locator: Locator): Promise<Locator> {
  await expect(locator).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(() => locator.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps$"))), { timeout: 30_000 })
    .toBe(true);
  return locator;
}

/** Signs out with the header's button and waits for the sign-in page. */
export async function signOut(page: Page) {
  await (await hydrated(page.getByRole("button", { name: "Sign out" }))).click();
  await expect(page).toHaveURL(/\/signin/, { timeout: 30_000 });
}

/** Signs up through /signup and waits until the portal's dashboard is shown (signed in). */
export async function signUp(page: Page, account: Account = newAccount()): Promise<Account> {
  await page.goto("/signup");
  await hydrated(page.getByRole("button", { name: "Create account" }));
  await page.getByLabel("Your name", { exact: true }).fill(account.name);
  await page.getByLabel("Business name", { exact: true }).fill(account.businessName);
  await page.getByLabel("E-mail", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/portal$/, { timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible({ timeout: 30_000 });
  return account;
}

/** Signs in with e-mail and password on /signin. */
export async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto("/signin");
  await hydrated(page.getByRole("button", { name: "Sign in", exact: true }));
  await page.locator("#email").fill(email);
  await page.locator("#password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

export interface SunkMail {
  id: number;
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  date: string;
}

export async function mailTo(email: string): Promise<SunkMail[]> {
  const res = await fetch(`${SINK}/messages?to=${encodeURIComponent(email.toLowerCase())}`);
  if (!res.ok) throw new Error(`SMTP sink answered ${res.status}`);
  return (await res.json()) as SunkMail[];
}

/** The sign-in link in the newest mail to `email` (waiting up to `timeoutMs` for one newer than `afterId`). */
export async function latestMagicLink(email: string, { afterId = 0, timeoutMs = 15_000 } = {}): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await mailTo(email)).filter((m) => m.id > afterId).at(-1);
    if (mail) {
      const fromText = /https?:\/\/\S+\/api\/auth\/callback\/email\?\S+/.exec(mail.text)?.[0];
      const fromHtml = /href="(https?:\/\/[^"]+\/api\/auth\/callback\/email\?[^"]+)"/.exec(mail.html)?.[1]?.replaceAll("&amp;", "&");
      const link = fromText ?? fromHtml;
      if (!link) throw new Error(`No sign-in link in the mail to ${email}: ${mail.text || mail.html}`);
      return link;
    }
    if (Date.now() > deadline) throw new Error(`No mail to ${email} reached the SMTP sink within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Confirms the portal's confirmation dialogs (components/ui/confirm-dialog.tsx) of rotate, revoke and delete
 * whenever one opens, by its last button (the action; the first is Cancel), and any native confirm() still left.
 */
export async function acceptDialogs(page: Page) {
  page.on("dialog", (d) => void d.accept());
  const dialog = page.getByRole("alertdialog");
  await page.addLocatorHandler(dialog, async () => {
    await dialog.getByRole("button").last().click();
  });
}

/** The portal's confirmation dialog for the action just clicked: checks it names what is lost, then confirms. */
export async function confirmDialog(
  page: Page,
  { title, says, button }: { title: string | RegExp; says?: string | RegExp; button: string },
) {
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading")).toHaveText(title);
  if (says) await expect(dialog).toContainText(says);
  await dialog.getByRole("button", { name: button }).click();
  await expect(dialog).toHaveCount(0);
}

/** Creates a key on /portal/keys and returns its secret as shown (once) in the page. */
export async function createKey(page: Page, name: string): Promise<string> {
  await page.goto("/portal/keys");
  await hydrated(page.getByRole("button", { name: "Create key" }));
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = page.getByTestId("new-secret");
  await expect(secret).toBeVisible();
  const value = (await secret.textContent())!.trim();
  expect(value).toMatch(/^sk_test_/);
  await expect(page.getByTestId(`key-row-${name}`)).toBeVisible();
  return value;
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** Makes `n` API calls with `key`; every one must succeed. */
export async function callApi(request: APIRequestContext, key: string, n: number, path = "/v1/products") {
  for (let i = 0; i < n; i++) {
    const res = await request.get(path, { headers: bearer(key) });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  }
}

/** Waits for a page's client fetches, and for an API reference (console or product portal) to have drawn itself. */
export async function settle(page: Page) {
  await page.waitForLoadState("networkidle").catch(() => {});
  const reference = page.getByTestId("api-reference");
  if (await reference.count()) await expect(reference).not.toContainText(/Loading|Preparing/, { timeout: 30_000 });
}

/**
 * The page is no wider than the window (`scrollWidth <= innerWidth`, no tolerance, and never wider than `width`, as
 * a phone's browser widens its layout viewport to fit what overflows); when it is, the message names the elements
 * that stick out: the outermost (whose parent still fits) and the innermost (none of whose children stick out),
 * leaving out what sticks out inside a box that scrolls or clips on its own (a wide table in `overflow-x-auto`).
 */
export async function expectNoOverflow(page: Page, label: string, width = page.viewportSize()?.width ?? 390) {
  // A page just resized (setViewportSize) lays itself out again over its next frames, and a chart re-measures only
  // when its ResizeObserver fires: up to 3 s to fit first, so what is measured is the layout at this width, not one
  // caught mid-resize. What still sticks out after that is reported below.
  await page
    .waitForFunction((w) => document.documentElement.scrollWidth <= Math.min(window.innerWidth, w), width, { timeout: 3000 })
    .catch(() => {});
  const found = await page.evaluate(() => {
    const vw = window.innerWidth;
    const sticksOut = (el: Element) => el.getBoundingClientRect().right > vw;
    const contained = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== "visible" && !sticksOut(a)) return true;
      }
      return false;
    };
    const name = (el: Element) => {
      const cls = typeof el.className === "string" ? el.className.trim().replace(/\s+/g, ".").slice(0, 80) : "";
      const id = el.getAttribute("data-testid") ?? el.id;
      const right = Math.round(el.getBoundingClientRect().right);
      return `<${el.tagName.toLowerCase()}${id ? `#${id}` : ""}${cls ? `.${cls}` : ""}> right ${right}px`;
    };
    const out = [...document.querySelectorAll("body *")].filter((el) => sticksOut(el) && !contained(el));
    const outer = out.filter((el) => !el.parentElement || !sticksOut(el.parentElement));
    const inner = out.filter((el) => ![...el.children].some(sticksOut));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: vw,
      outer: outer.slice(0, 6).map(name),
      inner: inner.slice(0, 6).map(name),
    };
  });
  const limit = Math.min(found.innerWidth, width);
  expect
    .soft(
      found.scrollWidth,
      `${label} is ${found.scrollWidth}px wide in a ${limit}px window. Sticking out: ${found.outer.join("; ") || "—"}. ` +
        `Innermost: ${found.inner.join("; ") || "—"}`,
    )
    .toBeLessThanOrEqual(limit);
  return found.scrollWidth <= limit;
}

/** Screenshots of a portal view for review, light and dark: test-results/screenshots/portal-<view>[-dark].png. */
export async function viewShot(page: Page, view: string) {
  // Let fonts, charts and client fetches settle before the picture.
  await page.waitForLoadState("networkidle").catch(() => {});
  await page.screenshot({ path: `test-results/screenshots/portal-${view}.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `test-results/screenshots/portal-${view}-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: null });
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface Receiver {
  url(path?: string): string;
  requests: ReceivedRequest[];
  waitFor(filter: (r: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 (random port) that records every request and answers 200. */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(", ") : String(v ?? "");
      requests.push({ method: req.method ?? "", path: req.url ?? "/", headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = "/hooks") => `http://127.0.0.1:${port}${path}`,
    requests,
    async waitFor(filter, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = requests.find(filter);
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`The receiver got no matching request in ${timeoutMs} ms (got ${requests.length})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** The receiver's side of X-Webhook-Signature (t=<ms>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">), done independently of the app's code. */
export function verifySignature(secret: string, header: string, body: string, toleranceMs = 300_000): boolean {
  const parts = header.split(",").map((p) => p.trim());
  const t = Number(parts.find((p) => p.startsWith("t="))?.slice(2));
  if (!Number.isFinite(t) || Math.abs(Date.now() - t) > toleranceMs) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  return parts
    .filter((p) => p.startsWith("v1="))
    .some((p) => {
      const given = Buffer.from(p.slice(3), "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** The number shown in a locator's text (thousands separators dropped). */
export async function numberIn(page: Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).textContent()) ?? "";
  return Number(text.replace(/[^0-9.]/g, ""));
}

/** An API call of the test that must answer `status`: its `data`. */
export async function apiSend(
  request: APIRequestContext,
  key: string,
  path: string,
  data: unknown,
  status: number,
  method: "post" | "patch" = "post",
) {
  const res = await request[method](path, { headers: bearer(key), data });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
  return (await res.json()).data;
}

/** GET `path` with `key`; it must answer 200: its `data`. */
export async function apiGet(request: APIRequestContext, key: string, path: string) {
  const res = await request.get(path, { headers: bearer(key) });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()).data;
}

/** The page's serious and critical axe violations (WCAG 2.1 A and AA, best practice), one line each. */
export async function seriousAxe(page: Page) {
  await page.waitForLoadState("networkidle").catch(() => {});
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

/** In the light and in the dark: nothing sticks out of the viewport and no serious axe violation; with `screenshot`,
 * a picture of each under test-results/screenshots/ for review. */
export async function fitsLightAndDark(page: Page, label: string, screenshot?: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoOverflow(page, `${label} (${colorScheme})`);
    expect(await seriousAxe(page), `${label} (${colorScheme})`).toEqual([]);
    if (screenshot) await page.screenshot({ path: `test-results/screenshots/${screenshot}-${colorScheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: null });
}
