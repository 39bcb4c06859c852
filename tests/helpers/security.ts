// The common security cases, run against every route of the route table (style.md: unkey's
// runCommonRouteTests). A route added to ROUTES is covered without anyone writing a test for it; if its path
// names a parameter or it reads a body that the fixtures do not know, its test fails and says which fixture to add.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { AnyRoute } from "@/lib/http/route";
import { SCOPE_ACTIONS, SCOPE_RESOURCES } from "@/lib/auth/scopes";
import { assertErrorEnvelope, request, seedBusiness, type ApiClient, type ApiResponse } from "./api";
import { setKeyExpiry } from "./db";

export type Params = Record<string, string>;

export interface RouteFixtures {
  /** Path pattern → makes, as tenant A in the test environment, real resources for every parameter of the path. */
  params: Record<string, (api: ApiClient) => Promise<Params>>;
  /** "METHOD /path/{id}" → a valid body, for every route that reads one. */
  bodies: Record<string, unknown | ((params: Params, api: ApiClient) => unknown)>;
  /** "METHOD /path" of the routes meant to answer without a key; any other `auth: "none"` route fails. */
  publicRoutes: string[];
  /** "METHOD /path" → state tenant A needs before the request (a route without parameters that reads a current record). */
  setup?: Record<string, (api: ApiClient) => Promise<void>>;
  /** "METHOD /path" of the routes any valid key may call (the catalogue): they must declare no scope, and a key with
   * an unrelated scope is answered. Every other authenticated route must declare one. */
  anyKeyRoutes?: string[];
}

type Tenant = Awaited<ReturnType<typeof seedBusiness>>;

interface Shared {
  a: Tenant;
  b: Tenant;
  revokedKey: string;
  expiredKey: string;
  /** Keys of tenant A (test) by their scope list, made on first use. */
  keyWith(scopes: string[]): Promise<string>;
}

const label = (r: AnyRoute) => `${r.method} ${r.path}`;
const paramNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
export const unknownKey = () => `sk_test_${randomBytes(32).toString("base64url")}`;

async function createKey(api: ApiClient, body: Record<string, unknown>) {
  const res = await api.post("/v1/api-keys", { name: "security fixture", ...body });
  if (res.status !== 201) throw new Error(`creating a key: expected 201, got ${res.status} ${res.text.slice(0, 300)}`);
  return res.body.data as { id: string; key: string };
}

let shared: Promise<Shared> | undefined;

function setUp(): Promise<Shared> {
  shared ??= (async () => {
    // Enterprise: the suite sends many requests per key, and must not meet a plan's rate limit or quota.
    const [a, b] = await Promise.all([seedBusiness("enterprise"), seedBusiness("enterprise")]);
    const revoked = await createKey(a.test, { scopes: ["*"] });
    const del = await a.test.delete(`/v1/api-keys/${revoked.id}`);
    if (del.status !== 204) throw new Error(`revoking a key: expected 204, got ${del.status} ${del.text.slice(0, 300)}`);
    // Expired in the database before its first use, so no server cache holds an older expiry.
    const expired = await createKey(a.test, { scopes: ["*"] });
    await setKeyExpiry(expired.id);
    const byScopes = new Map<string, Promise<string>>();
    const keyWith = (scopes: string[]) => {
      const id = scopes.join(",");
      if (!byScopes.has(id))
        byScopes.set(
          id,
          createKey(a.test, { scopes }).then((k) => k.key),
        );
      return byScopes.get(id)!;
    };
    return { a, b, revokedKey: revoked.key, expiredKey: expired.key, keyWith };
  })();
  return shared;
}

/** A concrete URL and body for `route`, made from fresh fixtures of tenant A; throws when a fixture is missing. */
async function prepare(route: AnyRoute, fixtures: RouteFixtures, api: ApiClient) {
  await fixtures.setup?.[label(route)]?.(api);
  const names = paramNames(route.path);
  let params: Params = {};
  if (names.length) {
    const make = fixtures.params[route.path];
    if (!make) throw new Error(`no fixture for ${route.path}: add one to the params fixtures of the security suite`);
    params = await make(api);
    for (const n of names) if (typeof params[n] !== "string") throw new Error(`the fixture for ${route.path} gives no '${n}'`);
  }
  const url = route.path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(params[n]));
  let body: unknown = undefined;
  if (route.body) {
    if (!(label(route) in fixtures.bodies))
      throw new Error(`no fixture body for ${label(route)}: add one to the body fixtures of the security suite`);
    const b = fixtures.bodies[label(route)];
    // A body may need records of its own first (a team names agents that exist): a function may create them.
    body = typeof b === "function" ? await (b as (p: Params, api: ApiClient) => unknown)(params, api) : b;
  }
  return { url, body, params };
}

/** A refusal in the error envelope, with the expected status and code, never a 500, never echoing the key. */
function assertRefused(res: ApiResponse, status: number, code: string, sentKey?: string) {
  const where = `${res.status} ${res.text.slice(0, 300)}`;
  assert.notEqual(res.status, 500, `server error: ${where}`);
  const error = assertErrorEnvelope(res);
  assert.equal(res.status, status, `expected ${status} ${code}, got ${where}`);
  assert.equal(error.code, code, `expected ${status} ${code}, got ${where}`);
  if (sentKey) {
    assert.ok(!res.text.includes(sentKey), "the response repeats the key");
    assert.ok(!res.text.includes(sentKey.slice(8)), "the response repeats the key's secret part");
  }
  return error as typeof error & Record<string, unknown>;
}

/** One page of a collection in the spec's envelope: `data`, `pagination {total, limit, offset, hasMore, nextCursor}`, `meta`. */
function assertCollectionPage(res: ApiResponse, offset: number) {
  const where = `${res.status} ${res.text.slice(0, 300)}`;
  assert.equal(res.status, 200, where);
  assert.deepEqual(Object.keys(res.body).sort(), ["data", "meta", "pagination"], `not the collection envelope: ${where}`);
  assert.ok(Array.isArray(res.body.data) && res.body.data.length <= 1, `data is not a list of at most limit=1 items: ${where}`);
  const p = res.body.pagination;
  assert.deepEqual(Object.keys(p).sort(), ["hasMore", "limit", "nextCursor", "offset", "total"], where);
  assert.equal(p.limit, 1, where);
  assert.equal(p.offset, offset, where);
  assert.ok(Number.isInteger(p.total) && p.total >= 0, where);
  if (offset < p.total) assert.equal(res.body.data.length, 1, `a page inside the total is not full: ${where}`);
  assert.equal(p.hasMore, offset + res.body.data.length < p.total, `hasMore disagrees with total: ${where}`);
  assert.equal(p.nextCursor === null, !p.hasMore, `nextCursor is given exactly when there is more: ${where}`);
  assert.match(res.body.meta?.requestId ?? "", /^req_/, where);
}

/** A scope on another resource than `scope`'s, so it cannot grant it. */
function unrelatedScope(scope: string): string {
  const [resource] = scope.split(":");
  return `${SCOPE_RESOURCES.find((r) => r !== resource)}:read`;
}

/** Every scope except `scope`: every other resource whole, and the other actions on its own resource. */
function everyScopeBut(scope: string): string[] {
  const [resource, action] = scope.split(":");
  return [
    ...SCOPE_RESOURCES.filter((r) => r !== resource).map((r) => `${r}:*`),
    ...SCOPE_ACTIONS.filter((a) => a !== action).map((a) => `${resource}:${a}`),
  ];
}

export function runCommonRouteTests(routes: AnyRoute[], fixtures: RouteFixtures): void {
  it("routes answer without a key only where meant to", () => {
    const open = routes.filter((r) => r.auth === "none").map(label);
    assert.deepEqual(
      open.filter((r) => !fixtures.publicRoutes.includes(r)),
      [],
      'routes declared auth: "none" that are not in the public list',
    );
  });

  for (const route of routes.filter((r) => r.auth !== "none")) {
    describe(label(route), () => {
      const hasParams = paramNames(route.path).length > 0;
      /** Sends the route's request with fresh fixtures of tenant A and the given credential. */
      const send = async (key: string | undefined, headers?: Record<string, string>) => {
        const { a } = await setUp();
        const { url, body } = await prepare(route, fixtures, a.test);
        const res = await request(route.method, url, { key, body, headers });
        return { res, url, body };
      };
      /** After a refusal of a DELETE, the resource must still be there: tenant A's own delete succeeds. */
      const stillThere = async (url: string) => {
        if (route.method !== "DELETE") return;
        const { a } = await setUp();
        const res = await request("DELETE", url, { key: a.testKey });
        assert.ok(res.status < 300, `the refused DELETE removed the resource: A's own DELETE got ${res.status} ${res.text.slice(0, 200)}`);
      };

      const anyKey = (fixtures.anyKeyRoutes ?? []).includes(label(route));
      if (anyKey) {
        it("is open to any valid key: declares no scope, and a key with an unrelated scope is answered", async () => {
          assert.equal(route.scope, undefined, `${label(route)} is listed as open to any key but requires ${route.scope}`);
          const key = await (await setUp()).keyWith(["webhooks:read"]);
          const { res } = await send(key);
          assert.ok(res.status >= 200 && res.status < 300, `expected 2xx, got ${res.status} ${res.text.slice(0, 300)}`);
        });
      } else {
        it("declares a scope", () => {
          assert.ok(route.scope, `${label(route)} requires no scope`);
        });
      }

      it("works for tenant A's full-access test key (the fixtures are real)", async () => {
        const { a } = await setUp();
        const { res } = await send(a.testKey);
        assert.ok(res.status >= 200 && res.status < 300, `expected 2xx, got ${res.status} ${res.text.slice(0, 300)}`);
      });

      it("no key → 401 INVALID_API_KEY", async () => {
        const { res, url } = await send(undefined);
        assertRefused(res, 401, "INVALID_API_KEY");
        await stillThere(url);
      });

      it("unknown well-formed key → 401 INVALID_API_KEY", async () => {
        const key = unknownKey();
        const { res, url } = await send(key);
        assertRefused(res, 401, "INVALID_API_KEY", key);
        await stillThere(url);
      });

      it("revoked key → 401 API_KEY_REVOKED", async () => {
        const { revokedKey } = await setUp();
        const { res, url } = await send(revokedKey);
        assertRefused(res, 401, "API_KEY_REVOKED", revokedKey);
        await stillThere(url);
      });

      it("expired key → 401 API_KEY_EXPIRED", async () => {
        const { expiredKey } = await setUp();
        const { res, url } = await send(expiredKey);
        assertRefused(res, 401, "API_KEY_EXPIRED", expiredKey);
        await stillThere(url);
      });

      if (!anyKey)
        it("key with an unrelated scope → 403 INSUFFICIENT_SCOPE naming the scope", async () => {
          assert.ok(route.scope, "the route declares no scope");
          const key = await (await setUp()).keyWith([unrelatedScope(route.scope)]);
          const { res, url } = await send(key);
          const error = assertRefused(res, 403, "INSUFFICIENT_SCOPE", key);
          assert.ok(
            error.requiredScope === route.scope || error.message.includes(route.scope),
            `the error does not name '${route.scope}': ${res.text.slice(0, 300)}`,
          );
          await stillThere(url);
        });

      if (!anyKey)
        it("key with every scope but the route's → 403 INSUFFICIENT_SCOPE", async () => {
          assert.ok(route.scope, "the route declares no scope");
          const key = await (await setUp()).keyWith(everyScopeBut(route.scope));
          const { res, url } = await send(key);
          const error = assertRefused(res, 403, "INSUFFICIENT_SCOPE", key);
          assert.equal(error.requiredScope, route.scope);
          await stillThere(url);
        });

      if (route.response.kind === "collection") {
        it("is a collection like every other: limit=1 with offset and with cursor answer the spec's envelope", async () => {
          const { a } = await setUp();
          const { url } = await prepare(route, fixtures, a.test);
          const page = async (query: string) => request("GET", `${url}?${query}`, { key: a.testKey });
          const first = await page("limit=1&offset=0");
          assertCollectionPage(first, 0);
          for (let offset = 1; offset <= Math.min(first.body.pagination.total, 3); offset++)
            assertCollectionPage(await page(`limit=1&offset=${offset}`), offset);
          // Past the end: an empty page that says so (far past it: logs and usage grow with these very calls).
          const beyond = first.body.pagination.total + 100_000;
          const empty = await page(`limit=1&offset=${beyond}`);
          assertCollectionPage(empty, beyond);
          assert.equal(empty.body.data.length, 0);
          // The cursor is understood: the next page by cursor, or a malformed one refused as such (not as an unknown
          // parameter); and it cannot be combined with an offset.
          if (first.body.pagination.nextCursor) assertCollectionPage(await page(`limit=1&cursor=${first.body.pagination.nextCursor}`), 0);
          assertRefused(await page("limit=1&cursor=not*a*cursor"), 400, "INVALID_CURSOR");
          assertRefused(await page("limit=1&offset=1&cursor=abc"), 400, "INVALID_PARAMETER");
          assertRefused(await page("limit=101"), 400, "INVALID_PARAMETER");
        });
      }

      if (hasParams) {
        it("another tenant's key on tenant A's resource → 404", async () => {
          const { b } = await setUp();
          const { res, url } = await send(b.testKey);
          assertRefused(res, 404, "RESOURCE_NOT_FOUND", b.testKey);
          await stillThere(url);
        });

        it("tenant A's live key on its test resource → 404 (wrong environment)", async () => {
          const { a } = await setUp();
          const { res, url } = await send(a.liveKey);
          assertRefused(res, 404, "RESOURCE_NOT_FOUND", a.liveKey);
          await stillThere(url);
        });
      }
    });
  }
}
