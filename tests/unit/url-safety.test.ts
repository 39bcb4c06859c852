// The SSRF rule (lib/webhooks/url-safety.ts, lib/webhooks/send.ts): webhook URLs must be http(s) and must not reach
// loopback, private or link-local addresses unless WEBHOOK_ALLOW_PRIVATE=true; the address a delivery connects to
// is checked again, so a host name that resolves to loopback is refused at connection time too.
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { checkUrlShape, checkUrlTarget, isPrivateAddress } from "@/lib/webhooks/url-safety";
import { postWebhook } from "@/lib/webhooks/send";

const saved = process.env.WEBHOOK_ALLOW_PRIVATE;
afterEach(() => {
  if (saved === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
  else process.env.WEBHOOK_ALLOW_PRIVATE = saved;
});
const refusePrivate = () => { delete process.env.WEBHOOK_ALLOW_PRIVATE; };

const PRIVATE = [
  "127.0.0.1", "127.255.255.254", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.255", "192.168.1.1",
  "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "198.18.0.1",
  "::1", "::", "fc00::1", "fd12:3456::1", "fe80::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:7f00:1",
  "localhost", "not an address",
];
const PUBLIC = ["8.8.8.8", "1.1.1.1", "172.32.0.1", "172.15.255.255", "192.169.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"];

for (const a of PRIVATE) test(`${a} counts as private`, () => assert.equal(isPrivateAddress(a), true));
for (const a of PUBLIC) test(`${a} counts as public`, () => assert.equal(isPrivateAddress(a), false));

test("only http and https URLs without credentials have an acceptable shape", () => {
  for (const ok of ["https://example.com/hooks", "http://example.com:8080/a?b=c", "https://[2606:4700::1111]/x"]) assert.equal(checkUrlShape(ok), null, ok);
  const bad: [string, RegExp][] = [
    ["not a url", /not valid/], ["", /not valid/], ["example.com/hooks", /not valid/], ["http://", /not valid/],
    ["ftp://example.com/x", /http or https/], ["file:///etc/passwd", /http or https/], ["javascript:alert(1)", /http or https/],
    ["gopher://example.com:70/", /http or https/], ["ws://example.com/socket", /http or https/], ["data:text/plain,hi", /http or https/],
    ["https://user:pass@example.com/", /credentials/], ["https://token@example.com/", /credentials/],
  ];
  for (const [url, message] of bad) assert.match(checkUrlShape(url)?.message ?? "(accepted)", message, url);
});

test("private targets are refused, whatever spelling the address is given in", async () => {
  refusePrivate();
  for (const url of [
    "http://127.0.0.1:3000/", "http://localhost/hook", "http://[::1]/", "http://169.254.169.254/latest/meta-data/",
    "http://10.1.2.3/", "http://192.168.0.10:8080/", "http://0.0.0.0/", "http://[::ffff:127.0.0.1]/",
    // WHATWG URL parsing turns these into 127.0.0.1 before the check sees them.
    "http://2130706433/", "http://0x7f.1/", "http://017700000001/", "http://127.1/",
  ]) {
    assert.match((await checkUrlTarget(url))?.message ?? "(accepted)", /loopback, private or link-local/, url);
  }
});

test("a public address literal is accepted; a host that does not resolve is refused by name", async () => {
  refusePrivate();
  assert.equal(await checkUrlTarget("https://8.8.8.8/hook"), null);
  assert.match((await checkUrlTarget("https://no-such-host.invalid/hook"))?.message ?? "(accepted)", /does not resolve/);
});

test("WEBHOOK_ALLOW_PRIVATE=true admits private targets but not other schemes", async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  assert.equal(await checkUrlTarget("http://127.0.0.1:3000/"), null);
  assert.equal(await checkUrlTarget("http://localhost/hook"), null);
  assert.match((await checkUrlTarget("file:///etc/passwd"))?.message ?? "(accepted)", /http or https/);
  process.env.WEBHOOK_ALLOW_PRIVATE = "yes"; // only the exact word switches it on
  assert.ok(await checkUrlTarget("http://127.0.0.1:3000/"));
});

test("at connection time a host name resolving to loopback is refused and nothing reaches the server", async () => {
  let hits = 0;
  const server = http.createServer((_req, res) => { hits++; res.end("ok"); });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  try {
    refusePrivate();
    const refused = await postWebhook(`http://localhost:${port}/hook`, { "Content-Type": "application/json" }, "{}");
    assert.equal(refused.ok, false);
    assert.equal(refused.status, null);
    assert.match(refused.error ?? "", /private address/);
    assert.equal(hits, 0);
    // The same request with private targets allowed does arrive: the refusal above was the guard, not the network.
    process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    const allowed = await postWebhook(`http://localhost:${port}/hook`, { "Content-Type": "application/json" }, "{}");
    assert.equal(allowed.ok, true, allowed.error ?? "");
    assert.equal(hits, 1);
  } finally {
    await new Promise((r) => server.close(r));
  }
});
