// An OAuth access token on every /v1 route of the route table, like a key: a token granted '*' passes the
// authentication and scope steps everywhere (whatever the route then answers about a made-up id or an empty
// body, it is never a 401 or 403, never a 500); a token granted one unrelated scope is refused everywhere with
// 403 INSUFFICIENT_SCOPE naming the route's scope, as a key would be.
import { describe, it, before } from "node:test";
import assert from "node:assert/strict";
import { ROUTES } from "@/lib/server/route-table";
import { request } from "../helpers/api";
import { portalUser, registerClient, tokensFor } from "../helpers/oauth";

const label = (r: (typeof ROUTES)[number]) => `${r.method} ${r.path}`;
const FAKE_ID = "x_01JD2Y7X3Q9W6E8R4T5Y7U9I0P";
let full: string;
let narrow: string;

before(async () => {
  const user = await portalUser();
  const everything = await registerClient({ scopes: ["*"] });
  full = (await tokensFor(everything, user, { scope: "*" })).tokens.access_token;
  const versionsOnly = await registerClient({ scopes: ["versions:read"] });
  narrow = (await tokensFor(versionsOnly, user, { scope: "versions:read" })).tokens.access_token;
});

describe("every authenticated /v1 route with an OAuth access token", () => {
  for (const route of ROUTES.filter((r) => r.auth !== "none")) {
    const url = route.path.replace(/\{[^}]+\}/g, FAKE_ID);
    const body = route.body ? {} : undefined;
    it(`${label(route)}: a '*' token gets past authentication and scope`, async () => {
      const res = await request(route.method, url, { key: full, body });
      assert.ok(![401, 403, 500].includes(res.status), `${res.status} ${res.text.slice(0, 300)}`);
    });
    // Routes open to any valid credential (the catalogue) have no scope to lack.
    if (route.scope !== undefined && route.scope !== "versions:read") {
      it(`${label(route)}: a token without '${route.scope}' → 403 INSUFFICIENT_SCOPE`, async () => {
        const res = await request(route.method, url, { key: narrow, body });
        assert.equal(res.status, 403, res.text.slice(0, 300));
        assert.equal(res.body.error.code, "INSUFFICIENT_SCOPE");
        assert.equal(res.body.error.requiredScope, route.scope);
      });
    }
  }
});
