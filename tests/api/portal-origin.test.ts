// Sign-in follows the address the browser used. Without PUBLIC_BASE_URL a server listening on every interface is
// reached as localhost, 127.0.0.1 or the machine's own addresses; after signing in the browser must land on the
// origin it started from (where its cookie is), not on a fixed NEXTAUTH_URL. Only the server's own addresses are
// followed: a forged Host or X-Forwarded-Host never steers a redirect, a callback or a link.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createUserWithBusiness } from "@/lib/portal/sign-up";
import { startServer, type TestServer } from "../helpers/server";
import { raw, signIn as signInAt } from "../helpers/portal-session";

const signIn = (server: TestServer, host: string, email: string, password: string, headers: Record<string, string> = {}) =>
  signInAt(server.url, email, password, { host, headers });

let wildcard: TestServer, behindProxy: TestServer;
let port: number;
const PASSWORD = "correct horse battery staple";
let email: string;

before(async () => {
  const base = {
    DATABASE_URL: process.env.DATABASE_URL!,
    KEY_HASH_SECRET: process.env.KEY_HASH_SECRET!,
    WEBHOOK_WORKER: "false",
    JOBS_IN_SERVER: "false",
  };
  email = `origin-${process.pid}-${Date.now()}@example.com`;
  [wildcard, behindProxy] = await Promise.all([
    // Listening on every interface, as `npm start` does by default.
    startServer({ ...base, HOST: "0.0.0.0" }),
    startServer({ ...base, PUBLIC_BASE_URL: "https://platform.example" }),
    createUserWithBusiness({ email, password: PASSWORD, name: "Origin Test" }),
  ]);
  port = Number(new URL(wildcard.url).port);
});

after(async () => {
  await Promise.all([wildcard?.stop(), behindProxy?.stop()]);
});

test("signed in at http://127.0.0.1, the browser is sent back to 127.0.0.1 with its session cookie, and the portal opens", async () => {
  const s = await signIn(wildcard, `127.0.0.1:${port}`, email, PASSWORD);
  assert.equal(s.url, `http://127.0.0.1:${port}/portal`);
  const session = s.setCookies.find((c) => /^next-auth\.session-token=/.test(c));
  assert.ok(session, s.setCookies.join("\n"));
  assert.match(session, /;\s*HttpOnly/i);
  assert.match(session, /;\s*SameSite=Lax/i);
  assert.doesNotMatch(session, /;\s*Domain=/i, "a host-only cookie, so it goes back to exactly this origin");
  for (const c of s.setCookies) {
    assert.match(c, /;\s*HttpOnly/i, c);
    assert.match(c, /;\s*SameSite=Lax/i, c);
    assert.doesNotMatch(c, /;\s*Secure/i, `${c}: plain http`);
  }
  const portal = await raw(`${wildcard.url}/portal`, { headers: { host: `127.0.0.1:${port}`, cookie: s.cookies.join("; ") } });
  assert.equal(portal.status, 200, `${portal.status} ${portal.headers.location ?? ""}`);
});

test("signed in at http://localhost, the browser stays on localhost", async () => {
  const s = await signIn(wildcard, `localhost:${port}`, email, PASSWORD);
  assert.equal(s.url, `http://localhost:${port}/portal`);
});

test("a forged Host or X-Forwarded-Host never steers a redirect or a link; the server's own address is used instead", async () => {
  const cases: Record<string, string>[] = [
    { host: "evil.example" },
    { host: `evil.example:${port}` },
    { host: `127.0.0.1:${port + 1}` },
    { host: `127.0.0.1:${port}`, "x-forwarded-host": "evil.example" },
    { host: `127.0.0.1:${port}`, "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
  ];
  for (const headers of cases) {
    const label = JSON.stringify(headers);
    const signinRedirect = await raw(`${wildcard.url}/portal/keys`, { headers });
    assert.equal(signinRedirect.status, 307, label);
    assert.match(String(signinRedirect.headers.location), new RegExp(`^(http://(localhost|127\\.0\\.0\\.1):${port})?/signin\\?`), label);
    const { host, ...forwarded } = headers;
    const s = await signIn(wildcard, host, email, PASSWORD, forwarded);
    assert.ok(!s.url.includes("evil.example"), `${label}: ${s.url}`);
    assert.match(s.url, new RegExp(`^http://(localhost|127\\.0\\.0\\.1):${port}/portal$`), label);
    const apiError = await raw(`${wildcard.url}/v1/products`, { headers });
    assert.equal(apiError.status, 401, label);
    const documentation = JSON.parse(apiError.body).error.documentation as string;
    assert.ok(!documentation.includes("evil.example"), `${label}: ${documentation}`);
  }
});

test("with PUBLIC_BASE_URL, callbacks and redirects use it whatever the Host, and cookies are Secure", async () => {
  const p = Number(new URL(behindProxy.url).port);
  for (const host of [`127.0.0.1:${p}`, "evil.example"]) {
    const s = await signIn(behindProxy, host, email, PASSWORD);
    assert.equal(s.url, "https://platform.example/portal", host);
    const session = s.setCookies.find((c) => /^__Secure-next-auth\.session-token=/.test(c));
    assert.ok(session, s.setCookies.join("\n"));
    assert.match(session, /;\s*Secure/i);
    assert.match(session, /;\s*HttpOnly/i);
    assert.match(session, /;\s*SameSite=Lax/i);
    for (const c of s.setCookies) assert.match(c, /;\s*Secure;.*HttpOnly|HttpOnly.*;\s*Secure/i, c);
    const redirect = await raw(`${behindProxy.url}/portal`, { headers: { host } });
    assert.equal(redirect.status, 307);
    assert.match(redirect.headers.location ?? "", /^(https:\/\/platform\.example)?\/signin\?/, host);
  }
});
