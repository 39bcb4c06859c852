// The platform's own cookies, which the gateway keeps from providers' upstreams both ways.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isPlatformCookie, setsPlatformCookie, withoutPlatformCookies } from "@/lib/http/platform-cookies";

test("next-auth's cookies (any prefix) and the portal's own are the platform's; others are not", () => {
  for (const name of [
    "next-auth.session-token",
    "__Secure-next-auth.session-token",
    "__Host-next-auth.csrf-token",
    "next-auth.callback-url",
    "portal_env",
    "portal_business",
    " portal_env",
  ])
    assert.ok(isPlatformCookie(name), name);
  for (const name of ["theme", "session", "my-next-auth.session-token", "portal_envx", "xportal_business", "next-auth"])
    assert.ok(!isPlatformCookie(name), name);
});

test("a Cookie header keeps the provider's cookies only, in their order; null when none is left", () => {
  assert.equal(withoutPlatformCookies("a=1; b=2"), "a=1; b=2");
  assert.equal(
    withoutPlatformCookies("next-auth.session-token=eyJ; a=1;__Secure-next-auth.callback-url=x ; portal_env=test; b=2"),
    "a=1; b=2",
  );
  assert.equal(withoutPlatformCookies("next-auth.session-token=eyJ; portal_business=biz_1"), null);
  assert.equal(withoutPlatformCookies("portal_envy=1"), "portal_envy=1");
});

test("a Set-Cookie line is the platform's when the cookie it sets is", () => {
  assert.ok(setsPlatformCookie("next-auth.session-token=x; Path=/; HttpOnly"));
  assert.ok(setsPlatformCookie("portal_business=biz_1"));
  assert.ok(!setsPlatformCookie("theme=dark; Path=/; Comment=next-auth.session-token"));
});
