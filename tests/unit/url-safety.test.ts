// The SSRF rule (lib/webhooks/url-safety.ts, lib/webhooks/send.ts): webhook URLs must be http(s) and must not reach
// loopback or private addresses unless ALLOW_PRIVATE_URLS=true (old name WEBHOOK_ALLOW_PRIVATE), and never link-local,
// cloud metadata or reserved ones, in whatever IPv6 form they are wrapped; the address a delivery connects to is
// checked again, so a host name that resolves to loopback is refused at connection time too.
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { checkUrlShape, checkUrlTarget, classifyAddress, isPrivateAddress, isRefusedAddress } from "@/lib/webhooks/url-safety";
import { postWebhook } from "@/lib/webhooks/send";

const SWITCHES = ["ALLOW_PRIVATE_URLS", "WEBHOOK_ALLOW_PRIVATE"] as const;
const saved = SWITCHES.map((k) => process.env[k]);
afterEach(() => {
  SWITCHES.forEach((k, i) => {
    if (saved[i] === undefined) delete process.env[k];
    else process.env[k] = saved[i];
  });
});
const refusePrivate = () => {
  for (const k of SWITCHES) delete process.env[k];
};
const allowPrivate = () => {
  refusePrivate();
  process.env.ALLOW_PRIVATE_URLS = "true";
};

const PRIVATE = [
  "127.0.0.1",
  "127.255.255.254",
  "10.0.0.1",
  "10.255.255.255",
  "172.16.0.1",
  "172.31.255.255",
  "192.168.1.1",
  "169.254.169.254",
  "100.64.0.1",
  "0.0.0.0",
  "224.0.0.1",
  "255.255.255.255",
  "198.18.0.1",
  "::1",
  "::",
  "fc00::1",
  "fd12:3456::1",
  "fe80::1",
  "ff02::1",
  "::ffff:127.0.0.1",
  "::ffff:10.0.0.1",
  "::ffff:7f00:1",
  "localhost",
  "not an address",
];
const PUBLIC = [
  "8.8.8.8",
  "1.1.1.1",
  "172.32.0.1",
  "172.15.255.255",
  "192.169.0.1",
  "100.128.0.1",
  "2606:4700:4700::1111",
  "::ffff:8.8.8.8",
];

for (const a of PRIVATE) test(`${a} counts as private`, () => assert.equal(isPrivateAddress(a), true));
for (const a of PUBLIC) test(`${a} counts as public`, () => assert.equal(isPrivateAddress(a), false));

test("only http and https URLs without credentials have an acceptable shape", () => {
  for (const ok of ["https://example.com/hooks", "http://example.com:8080/a?b=c", "https://[2606:4700::1111]/x"])
    assert.equal(checkUrlShape(ok), null, ok);
  const bad: [string, RegExp][] = [
    ["not a url", /not valid/],
    ["", /not valid/],
    ["example.com/hooks", /not valid/],
    ["http://", /not valid/],
    ["ftp://example.com/x", /http or https/],
    ["file:///etc/passwd", /http or https/],
    ["javascript:alert(1)", /http or https/],
    ["gopher://example.com:70/", /http or https/],
    ["ws://example.com/socket", /http or https/],
    ["data:text/plain,hi", /http or https/],
    ["https://user:pass@example.com/", /credentials/],
    ["https://token@example.com/", /credentials/],
  ];
  for (const [url, message] of bad) assert.match(checkUrlShape(url)?.message ?? "(accepted)", message, url);
});

test("private targets are refused, whatever spelling the address is given in", async () => {
  refusePrivate();
  for (const url of [
    "http://127.0.0.1:3000/",
    "http://localhost/hook",
    "http://[::1]/",
    "http://240.0.0.1/hook",
    "http://10.1.2.3/",
    "http://192.168.0.10:8080/",
    "http://0.0.0.0/",
    "http://[::ffff:127.0.0.1]/",
    // WHATWG URL parsing turns these into 127.0.0.1 before the check sees them.
    "http://2130706433/",
    "http://0x7f.1/",
    "http://017700000001/",
    "http://127.1/",
  ]) {
    assert.match((await checkUrlTarget(url))?.message ?? "(accepted)", /may not point to/, url);
  }
});

// IPv6 spellings of private and link-local IPv4 addresses: each reaches the IPv4 address it carries through a
// translator or tunnel (or the local stack), so each counts as that address.
const WRAPPED_PRIVATE = [
  "64:ff9b::7f00:1",
  "64:ff9b::10.0.0.1",
  "64:ff9b::c0a8:101", // NAT64 of 127.0.0.1, 10.0.0.1, 192.168.1.1
  "64:ff9b:1::a00:1", // local-use NAT64 (RFC 8215)
  "2002:7f00:1::1",
  "2002:c0a8:101::",
  "2002:0a00:0001:1234::1", // 6to4 of 127.0.0.1, 192.168.1.1, 10.0.0.1
  "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo whose client is 127.0.0.1 (stored inverted: 7f00:0001 ^ ffff)
  "2001:0:a00:1::f7f7:f7f7", // Teredo whose server is 10.0.0.1 (client 8.8.8.8)
  "::127.0.0.1",
  "::10.0.0.1", // IPv4-compatible
  "::ffff:0:127.0.0.1",
  "::ffff:0:a00:1", // IPv4-translated
  "::ffff:c0a8:101",
  "::FFFF:10.0.0.1", // IPv4-mapped, hex and upper-case spellings
  "2001:db8::5efe:a00:1",
  "2001:db8::200:5efe:c0a8:101", // ISATAP interface ids carrying 10.0.0.1, 192.168.1.1
];
const WRAPPED_LINK_LOCAL = [
  "64:ff9b::a9fe:a9fe",
  "64:ff9b::169.254.169.254",
  "64:ff9b:1::a9fe:a9fe",
  "2002:a9fe:a9fe::1",
  "::169.254.169.254",
  "::ffff:169.254.169.254",
  "::ffff:0:a9fe:a9fe",
  "2001:0:4136:e378:8000:63bf:5601:5601", // Teredo client 169.254.254.254
  "fd00:ec2::254",
  "fe80::1",
  "fe80::1%eth0",
  "febf::1",
  "::",
  "::0.0.0.0",
  "169.254.0.1",
  "100.100.100.200",
  "ff02::1",
];

test("IPv6 forms that embed a private IPv4 address count as private, not public", () => {
  for (const a of WRAPPED_PRIVATE) assert.equal(classifyAddress(a), "private", a);
});

test("link-local and cloud metadata addresses are forbidden in every spelling", () => {
  for (const a of WRAPPED_LINK_LOCAL) assert.equal(classifyAddress(a), "forbidden", a);
});

test("IPv6 forms that embed a public IPv4 address stay public", () => {
  for (const a of [
    "64:ff9b::808:808",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
    "::ffff:1.1.1.1",
    "2a00:1450:4001:82b::200e",
  ]) {
    assert.equal(classifyAddress(a), "public", a);
  }
});

test("without the switch, NAT64, 6to4 and Teredo URLs carrying private addresses are refused on save", async () => {
  refusePrivate();
  for (const a of WRAPPED_PRIVATE.filter((x) => !x.includes("%"))) {
    assert.ok(await checkUrlTarget(`http://[${a}]/hook`), a);
  }
});

test("ALLOW_PRIVATE_URLS=true opens loopback and private ranges but never link-local or metadata addresses", async () => {
  allowPrivate();
  for (const url of [
    "http://127.0.0.1:3000/",
    "http://localhost/hook",
    "http://10.1.2.3/",
    "http://[::1]/",
    "http://[fd12::1]/",
    "http://[64:ff9b::7f00:1]/",
  ]) {
    assert.equal(await checkUrlTarget(url), null, url);
  }
  for (const url of [
    // Reserved, unspecified and multicast addresses, which nothing answers, stand for the whole forbidden class:
    // link-local and metadata addresses are classified above as addresses, never put in a URL.
    "http://240.0.0.1/hook",
    "http://0.0.0.0/",
    "http://[64:ff9b::f000:1]/",
    "http://[2002:f000:1::1]/",
    "http://[::ffff:240.0.0.1]/",
    "http://[::]/",
    "http://224.0.0.1/",
  ]) {
    assert.match((await checkUrlTarget(url))?.message ?? "(accepted)", /link-local, cloud metadata or reserved/, url);
  }
});

test("the old name WEBHOOK_ALLOW_PRIVATE still works; ALLOW_PRIVATE_URLS wins when both are set", async () => {
  refusePrivate();
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  assert.equal(await checkUrlTarget("http://127.0.0.1/"), null);
  assert.match((await checkUrlTarget("http://240.0.0.1/"))?.message ?? "(accepted)", /link-local, cloud metadata or reserved/);
  process.env.ALLOW_PRIVATE_URLS = "false";
  assert.ok(await checkUrlTarget("http://127.0.0.1/"));
});

test("at delivery time an address literal is checked before connecting, with the predicate the save-time check uses", async () => {
  // A literal is connected to without a DNS lookup, so postWebhook checks it itself. Shown on loopback only (no test
  // may reach another address): refused without the switch, and nothing arrives.
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  try {
    refusePrivate();
    const r = await postWebhook(`http://127.0.0.1:${port}/hook`, { "Content-Type": "application/json" }, "{}", 2_000);
    assert.equal(r.ok, false);
    assert.equal(r.status, null);
    assert.match(r.error ?? "", /refused/);
    assert.equal(hits, 0);
  } finally {
    await new Promise((r) => server.close(r));
  }
  // The same predicate refuses link-local and metadata addresses even with the switch on.
  allowPrivate();
  for (const a of ["169.254.169.254", "fd00:ec2::254", "64:ff9b::a9fe:a9fe", "fe80::1"]) assert.equal(isRefusedAddress(a), true, a);
  assert.equal(isRefusedAddress("127.0.0.1"), false);
});

test("a public address literal is accepted; a host that does not resolve is refused by name", async () => {
  refusePrivate();
  assert.equal(await checkUrlTarget("https://8.8.8.8/hook"), null);
  assert.match((await checkUrlTarget("https://no-such-host.invalid/hook"))?.message ?? "(accepted)", /does not resolve/);
});

test("ALLOW_PRIVATE_URLS=true admits private targets but not other schemes", async () => {
  allowPrivate();
  assert.equal(await checkUrlTarget("http://127.0.0.1:3000/"), null);
  assert.equal(await checkUrlTarget("http://localhost/hook"), null);
  assert.match((await checkUrlTarget("file:///etc/passwd"))?.message ?? "(accepted)", /http or https/);
  process.env.ALLOW_PRIVATE_URLS = "yes"; // only the exact word switches it on
  assert.ok(await checkUrlTarget("http://127.0.0.1:3000/"));
});

test("at connection time a host name resolving to loopback is refused and nothing reaches the server", async () => {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end("ok");
  });
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
    allowPrivate();
    const allowed = await postWebhook(`http://localhost:${port}/hook`, { "Content-Type": "application/json" }, "{}");
    assert.equal(allowed.ok, true, allowed.error ?? "");
    assert.equal(hits, 1);
  } finally {
    await new Promise((r) => server.close(r));
  }
});
