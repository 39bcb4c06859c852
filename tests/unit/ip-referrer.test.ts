// The pieces of a key's restrictions: IP allow-lists (IPv4, IPv6, CIDR), the client address (socket, or
// X-Forwarded-For only through TRUSTED_PROXIES) and referrer host patterns.
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { ipAllowed, isAddressOrCidr } from "@/lib/auth/ip-match";
import { clientIp, normaliseIp, resetTrustedProxies } from "@/lib/auth/client-ip";
import { isHostPattern, refererHost, referrerAllowed } from "@/lib/auth/referrer-match";

test("allow-list entries are IPv4 or IPv6 addresses or CIDR ranges", () => {
  for (const ok of [
    "10.0.0.1",
    "10.0.0.0/8",
    "0.0.0.0/0",
    "192.168.1.0/24",
    "::1",
    "2001:db8::/32",
    "::/0",
    "fe80::1/128",
    "::ffff:10.0.0.1",
  ]) {
    assert.equal(isAddressOrCidr(ok), true, ok);
  }
  for (const bad of [
    "",
    "10.0.0",
    "10.0.0.256",
    "10.0.0.0/33",
    "::1/129",
    "10.0.0.0/",
    "10.0.0.0/8/8",
    "10.0.0.0/-1",
    "10.0.0.0/a",
    "example.com",
    "2001:db8::/",
    "1.2.3.4 OR 1=1",
    "10.0.0.0/08a",
  ]) {
    assert.equal(isAddressOrCidr(bad), false, bad);
  }
});

test("IPv4 addresses and ranges match exactly their members", () => {
  assert.equal(ipAllowed(["10.0.0.0/8"], "10.255.1.2"), true);
  assert.equal(ipAllowed(["10.0.0.0/8"], "11.0.0.1"), false);
  assert.equal(ipAllowed(["192.168.1.0/24"], "192.168.1.255"), true);
  assert.equal(ipAllowed(["192.168.1.0/24"], "192.168.2.0"), false);
  assert.equal(ipAllowed(["127.0.0.1"], "127.0.0.1"), true);
  assert.equal(ipAllowed(["127.0.0.1"], "127.0.0.2"), false);
  assert.equal(ipAllowed(["0.0.0.0/0"], "8.8.8.8"), true);
  assert.equal(ipAllowed(["203.0.113.0/24", "198.51.100.7"], "198.51.100.7"), true);
});

test("IPv6 addresses and ranges match, in any spelling", () => {
  assert.equal(ipAllowed(["2001:db8::/32"], "2001:db8:ffff::1"), true);
  assert.equal(ipAllowed(["2001:db8::/32"], "2001:db9::1"), false);
  assert.equal(ipAllowed(["::1"], "::1"), true);
  assert.equal(ipAllowed(["::1"], "0:0:0:0:0:0:0:1"), true);
  assert.equal(ipAllowed(["2001:DB8::1"], "2001:db8::1"), true);
  // An IPv4 caller matches its IPv4-mapped IPv6 form.
  assert.equal(ipAllowed(["::ffff:10.0.0.1"], "10.0.0.1"), true);
  assert.equal(ipAllowed(["::ffff:10.0.0.0/104"], "10.1.2.3"), true);
  // ::1 is not 127.0.0.1: loopback must be listed in each family.
  assert.equal(ipAllowed(["::1"], "127.0.0.1"), false);
});

test("no address, or something that is not one, is never allowed", () => {
  assert.equal(ipAllowed(["0.0.0.0/0"], null), false);
  assert.equal(ipAllowed(["0.0.0.0/0", "::/0"], "not-an-ip"), false);
  assert.equal(ipAllowed(["0.0.0.0/0"], ""), false);
  assert.equal(ipAllowed(["10.0.0.0/8"], "10.0.0.1, 11.0.0.1"), false);
});

afterEach(() => {
  delete process.env.TRUSTED_PROXIES;
  resetTrustedProxies();
});

const headers = (h: Record<string, string>) => new Headers(h);

test("the client address is the socket's; X-Forwarded-For is ignored without TRUSTED_PROXIES", () => {
  assert.equal(clientIp(headers({ "x-platform-client-ip": "127.0.0.1", "x-forwarded-for": "10.1.2.3" })), "127.0.0.1");
  assert.equal(clientIp(headers({ "x-platform-client-ip": "::ffff:127.0.0.1" })), "127.0.0.1");
  assert.equal(clientIp(headers({ "x-platform-client-ip": "::1" })), "::1");
  assert.equal(clientIp(headers({ "x-forwarded-for": "10.1.2.3" })), null, "no socket address, no client address");
  assert.equal(normaliseIp(" [::1] "), "::1");
});

test("from a trusted proxy, the last hop that is not a trusted proxy is the client", () => {
  process.env.TRUSTED_PROXIES = "127.0.0.1, 10.0.0.0/8";
  resetTrustedProxies();
  const from = (socket: string, xff?: string) =>
    clientIp(headers({ "x-platform-client-ip": socket, ...(xff ? { "x-forwarded-for": xff } : {}) }));
  assert.equal(from("127.0.0.1", "203.0.113.9"), "203.0.113.9");
  assert.equal(from("127.0.0.1", "203.0.113.9, 10.0.0.5"), "203.0.113.9", "a second trusted proxy is skipped");
  assert.equal(from("127.0.0.1", "10.9.9.9, 198.51.100.1"), "198.51.100.1", "a spoofed first hop is not believed");
  assert.equal(from("127.0.0.1", "garbage, 198.51.100.1"), "198.51.100.1");
  assert.equal(from("127.0.0.1", "garbage"), "127.0.0.1", "nothing usable: the socket");
  assert.equal(from("127.0.0.1"), "127.0.0.1");
  assert.equal(from("::ffff:127.0.0.1", "203.0.113.9"), "203.0.113.9");
  // A socket that is not a trusted proxy: its X-Forwarded-For is the client's own word.
  assert.equal(from("198.51.100.1", "10.1.2.3"), "198.51.100.1");
});

test("referrer patterns are hosts, wildcard hosts or origins", () => {
  for (const ok of [
    "example.com",
    "*.example.com",
    "https://app.example.com",
    "https://*.example.com",
    "localhost:3000",
    "EXAMPLE.com",
    "example.com/path",
  ]) {
    assert.equal(isHostPattern(ok), true, ok);
  }
  for (const bad of [
    "",
    " ",
    "exa mple.com",
    "*",
    "*.",
    "ex*ample.com",
    "http://",
    "a..b",
    "javascript:alert(1)",
    "example.com:99999999",
  ]) {
    assert.equal(isHostPattern(bad), false, bad);
  }
});

test("a wildcard pattern matches subdomains only, never look-alikes", () => {
  const p = ["*.example.com"];
  assert.equal(referrerAllowed(p, "app.example.com"), true);
  assert.equal(referrerAllowed(p, "a.b.example.com"), true);
  assert.equal(referrerAllowed(p, "example.com"), false);
  assert.equal(referrerAllowed(p, "evilexample.com"), false);
  assert.equal(referrerAllowed(p, "example.com.evil.com"), false);
  assert.equal(referrerAllowed(p, ".example.com"), false);
  assert.equal(referrerAllowed(p, null), false);
});

test("a pattern without a port matches the host on any port; one with a port, that port only", () => {
  assert.equal(referrerAllowed(["example.com"], "example.com"), true);
  assert.equal(referrerAllowed(["example.com"], "example.com:8443"), true);
  assert.equal(referrerAllowed(["*.example.com"], "app.example.com:8443"), true);
  assert.equal(referrerAllowed(["localhost:3000"], "localhost:3000"), true);
  assert.equal(referrerAllowed(["localhost:3000"], "localhost:4000"), false);
  assert.equal(referrerAllowed(["*.example.com:8443"], "app.example.com:8443"), true);
  assert.equal(referrerAllowed(["*.example.com:8443"], "app.example.com:9443"), false);
  assert.equal(referrerAllowed(["https://shop.example.org"], "shop.example.org"), true);
  assert.equal(referrerAllowed(["https://shop.example.org"], "www.shop.example.org"), false);
});

test("the caller's site comes from Referer, else Origin; junk is no site", () => {
  assert.equal(refererHost(headers({ referer: "https://App.Example.com/path?q=1" })), "app.example.com");
  assert.equal(refererHost(headers({ origin: "https://app.example.com" })), "app.example.com");
  assert.equal(refererHost(headers({ referer: "https://a.example.com/", origin: "https://b.example.com" })), "a.example.com");
  assert.equal(refererHost(headers({ referer: "not a url" })), null);
  assert.equal(refererHost(headers({ origin: "null" })), null);
  assert.equal(refererHost(headers({})), null);
});
