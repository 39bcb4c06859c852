// Every HTML page (public pages, the portal, the consent page, a 404) is sent with a Content-Security-Policy whose
// scripts are allowed by a per-request nonce (every <script> of the page carries it), may not be framed, and carries
// nosniff and a referrer policy; HSTS only when the server is served over https (PUBLIC_BASE_URL=https://…).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createUserWithBusiness } from "@/lib/portal/sign-up";
import { BASE_URL } from "../helpers/api";
import { startServer, type TestServer } from "../helpers/server";
import { raw, signIn, type RawResponse } from "../helpers/portal-session";

const PASSWORD = "correct horse battery staple";
let cookie = "";
let https: TestServer;

before(async () => {
  const email = `headers-${process.pid}-${Date.now()}@example.com`;
  [https] = await Promise.all([
    startServer({
      DATABASE_URL: process.env.DATABASE_URL!,
      KEY_HASH_SECRET: process.env.KEY_HASH_SECRET!,
      WEBHOOK_WORKER: "false",
      JOBS_IN_SERVER: "false",
      PUBLIC_BASE_URL: "https://platform.example",
    }),
    createUserWithBusiness({ email, password: PASSWORD, name: "Headers Test" }),
  ]);
  cookie = (await signIn(BASE_URL, email, PASSWORD)).cookies.join("; ");
});

after(async () => {
  await https?.stop();
});

const header = (res: RawResponse, name: string) => String(res.headers[name] ?? "");

function directives(res: RawResponse): Map<string, string[]> {
  const csp = header(res, "content-security-policy");
  assert.ok(csp, "a Content-Security-Policy header");
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name, values] as [string, string[]];
      }),
  );
}

/** Checks one HTML answer and returns its nonce. */
function checkPage(res: RawResponse, label: string): string {
  assert.match(header(res, "content-type"), /^text\/html/, label);
  const d = directives(res);
  const scripts = d.get("script-src") ?? [];
  const nonce = scripts.find((s) => /^'nonce-[A-Za-z0-9+/=_-]{16,}'$/.test(s))?.slice(7, -1);
  assert.ok(nonce, `${label}: script-src has a nonce: ${scripts.join(" ")}`);
  assert.ok(scripts.includes("'strict-dynamic'"), label);
  assert.ok(!scripts.includes("'unsafe-inline'") && !scripts.includes("'unsafe-eval'"), `${label}: ${scripts.join(" ")}`);
  assert.deepEqual(d.get("frame-ancestors"), ["'none'"], label);
  assert.deepEqual(d.get("object-src"), ["'none'"], label);
  assert.deepEqual(d.get("default-src"), ["'self'"], label);
  assert.ok(d.has("base-uri"), label);
  assert.equal(header(res, "x-content-type-options"), "nosniff", label);
  assert.equal(header(res, "referrer-policy"), "strict-origin-when-cross-origin", label);
  assert.equal(header(res, "x-frame-options"), "DENY", label);
  // Every script the page carries is one the nonce lets run; a script without it would be blocked by the browser.
  const tags = res.body.match(/<script\b[^>]*>/g) ?? [];
  assert.ok(tags.length > 0, `${label}: the page has scripts`);
  for (const tag of tags) assert.ok(tag.includes(`nonce="${nonce}"`), `${label}: ${tag.slice(0, 200)}`);
  return nonce!;
}

const PUBLIC_PAGES = ["/", "/docs", "/docs/errors", "/docs/webhooks", "/docs/oauth", "/signin", "/signup", "/apps", "/no-such-page"];
const PORTAL_PAGES = ["/portal", "/portal/docs", "/portal/keys", "/portal/webhooks", "/portal/settings"];

test("public pages and a 404 carry the CSP with a nonce on every script, no framing, nosniff and the referrer policy", async () => {
  for (const path of PUBLIC_PAGES) {
    const res = await raw(`${BASE_URL}${path}`);
    assert.equal(res.status, path === "/no-such-page" ? 404 : 200, path);
    checkPage(res, path);
    assert.equal(header(res, "strict-transport-security"), "", `${path}: no HSTS over plain http`);
  }
});

test("portal pages of a signed-in user carry the same headers", async () => {
  for (const path of PORTAL_PAGES) {
    const res = await raw(`${BASE_URL}${path}`, { headers: { cookie } });
    assert.equal(res.status, 200, `${path}: ${res.status} ${res.headers.location ?? ""}`);
    checkPage(res, path);
  }
});

test("HTML from route handlers (the OAuth error page, next-auth's sign-out page) carries the policy too", async () => {
  for (const path of ["/oauth/authorize?client_id=oac_nope&response_type=code", "/api/auth/signout"]) {
    const res = await raw(`${BASE_URL}${path}`);
    assert.match(header(res, "content-type"), /^text\/html/, path);
    const d = directives(res);
    assert.deepEqual(d.get("frame-ancestors"), ["'none'"], path);
    assert.ok((d.get("script-src") ?? []).includes("'strict-dynamic'"), path);
    assert.equal(header(res, "x-content-type-options"), "nosniff", path);
    assert.equal(header(res, "referrer-policy"), "strict-origin-when-cross-origin", path);
  }
});

test("each response has a nonce of its own", async () => {
  const nonces = new Set<string>();
  for (let i = 0; i < 3; i++) nonces.add(checkPage(await raw(`${BASE_URL}/signin`), "/signin"));
  assert.equal(nonces.size, 3);
});

test("served over https (PUBLIC_BASE_URL=https://…), pages add HSTS", async () => {
  for (const path of ["/", "/signin", "/docs"]) {
    const res = await raw(`${https.url}${path}`);
    assert.equal(res.status, 200, path);
    checkPage(res, path);
    assert.match(header(res, "strict-transport-security"), /^max-age=\d{7,}; includeSubDomains$/, path);
  }
});
