// Host routing (scripts/lib/host-routing.mjs): {slug}.GATEWAY_HOST_SUFFIX is the gateway's /gw/{slug}/…,
// {slug}.APP_HOST_SUFFIX the product portal /p/{slug}/…, and nothing else is touched.
import { test } from "node:test";
import assert from "node:assert/strict";
// @ts-expect-error: plain ESM script without types
import { hostSuffix, routeByHost, slugOfHost } from "../../scripts/lib/host-routing.mjs";
// @ts-expect-error: plain ESM script without types
import { requestOrigin } from "../../scripts/lib/request-origin.mjs";

const route = (hostHeader: string | undefined, url: string) =>
  routeByHost({ hostHeader, url, gatewaySuffix: "gw.example.com", appSuffix: "apps.example.com" });

test("host routing: a gateway host is the gateway's path, query and all", () => {
  assert.equal(route("tides.gw.example.com", "/v2/tides?day=1"), "/gw/tides/v2/tides?day=1");
  assert.equal(route("tides.gw.example.com:8443", "/"), "/gw/tides/");
  assert.equal(route("TIDES.GW.EXAMPLE.COM", "/x"), "/gw/tides/x");
});

test("host routing: an app host is the product portal; its assets, sign-in and the portal's own links stay as they are", () => {
  assert.equal(route("tides.apps.example.com", "/"), "/p/tides");
  assert.equal(route("tides.apps.example.com", "/?ref=x"), "/p/tides?ref=x");
  assert.equal(route("tides.apps.example.com", "/docs"), "/p/tides/docs");
  for (const path of ["/_next/static/a.js", "/p/tides/keys", "/apps/tides", "/api/auth/session", "/signin?callbackUrl=%2F", "/favicon.ico"])
    assert.equal(route("tides.apps.example.com", path), null, path);
});

test("host routing: other hosts, nested names, bad slugs and no suffix leave the request alone", () => {
  assert.equal(route("localhost:3000", "/v1/products"), null);
  assert.equal(route("gw.example.com", "/x"), null, "the suffix itself has no slug");
  assert.equal(route("a.b.gw.example.com", "/x"), null, "a dotted slug is not a slug");
  assert.equal(route("-x.gw.example.com", "/x"), null);
  assert.equal(route("tides.gw.example.com.evil.test", "/x"), null);
  assert.equal(route(undefined, "/x"), null);
  assert.equal(routeByHost({ hostHeader: "tides.gw.example.com", url: "/x", gatewaySuffix: null, appSuffix: null }), null);
  assert.equal(hostSuffix(" .GW.Example.com. "), "gw.example.com");
  assert.equal(hostSuffix(""), null);
  assert.equal(slugOfHost("tides.gw.example.com", "gw.example.com"), "tides");
});

test("host routing: a product host's origin is kept (sign-in and links stay on it); a stranger's host is not", () => {
  const routed = (h: string) => slugOfHost(h, "apps.example.com") !== null;
  const names = new Set(["localhost"]);
  assert.equal(requestOrigin({ hostHeader: "tides.apps.example.com", port: 3000, names, routed }), "http://tides.apps.example.com");
  assert.equal(
    requestOrigin({ hostHeader: "tides.apps.example.com", port: 3000, names, routed, publicBaseUrl: "https://example.com" }),
    "https://tides.apps.example.com",
  );
  assert.equal(requestOrigin({ hostHeader: "evil.test", port: 3000, names, routed }), "http://localhost:3000");
});
