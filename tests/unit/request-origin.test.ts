// The origin a request is answered for (scripts/lib/request-origin.mjs, applied by server.mjs): PUBLIC_BASE_URL when
// set, else the Host the browser used when it names this server on its port, else the server's own address.
import { test } from "node:test";
import assert from "node:assert/strict";
// @ts-expect-error: plain ESM script without types
import { applyOrigin, parseHost, requestOrigin } from "../../scripts/lib/request-origin.mjs";

const names = new Set(["localhost", "127.0.0.1", "::1", "devbox", "10.1.2.3"]);
const origin = (hostHeader: string | undefined, more: Record<string, unknown> = {}) =>
  requestOrigin({ hostHeader, port: 3000, listenHost: "0.0.0.0", names, ...more });

test("a Host naming this server on its port is followed", () => {
  assert.equal(origin("127.0.0.1:3000"), "http://127.0.0.1:3000");
  assert.equal(origin("LOCALHOST:3000"), "http://localhost:3000");
  assert.equal(origin("[::1]:3000"), "http://[::1]:3000");
  assert.equal(origin("devbox:3000"), "http://devbox:3000");
  assert.equal(origin("10.1.2.3:3000"), "http://10.1.2.3:3000");
});

test("anything else gets the server's own address", () => {
  for (const host of [
    undefined,
    "",
    "evil.example",
    "evil.example:3000",
    "127.0.0.1:3001",
    "127.0.0.1",
    "localhost.evil.example:3000",
    "127.0.0.1:3000@evil.example",
    "127.0.0.1:3000/x",
    "user@127.0.0.1:3000",
    "[::1",
    "a".repeat(300),
  ]) {
    assert.equal(origin(host), "http://localhost:3000", String(host));
  }
  assert.equal(origin("evil.example", { listenHost: "127.0.0.1" }), "http://127.0.0.1:3000");
  assert.equal(origin("evil.example", { listenHost: "::1" }), "http://[::1]:3000");
});

test("PUBLIC_BASE_URL wins over any Host", () => {
  assert.equal(origin("127.0.0.1:3000", { publicBaseUrl: "https://api.example.com/" }), "https://api.example.com");
  assert.equal(origin("evil.example", { publicBaseUrl: "https://api.example.com:8443/base" }), "https://api.example.com:8443");
});

test("applyOrigin overwrites Host and the forwarded headers a client may have sent", () => {
  const headers: Record<string, string> = {
    host: "evil.example",
    "x-forwarded-host": "evil.example",
    "x-forwarded-proto": "https",
    "x-forwarded-port": "1",
  };
  applyOrigin(headers, "http://127.0.0.1:3000");
  assert.deepEqual(headers, {
    host: "127.0.0.1:3000",
    "x-forwarded-host": "127.0.0.1:3000",
    "x-forwarded-proto": "http",
    "x-forwarded-port": "3000",
  });
  applyOrigin(headers, "https://api.example.com");
  assert.deepEqual(headers, {
    host: "api.example.com",
    "x-forwarded-host": "api.example.com",
    "x-forwarded-proto": "https",
    "x-forwarded-port": "443",
  });
});

test("parseHost reads host[:port] only", () => {
  assert.deepEqual(parseHost("Example.COM:80"), { hostname: "example.com", port: 80 });
  assert.deepEqual(parseHost("[fe80::1]"), { hostname: "fe80::1", port: null });
  assert.equal(parseHost("a b"), null);
  assert.equal(parseHost(undefined), null);
});
