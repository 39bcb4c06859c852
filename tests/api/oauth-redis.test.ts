// Revoking an OAuth authorization on one server stops its access token on another at once: both cache verified
// tokens in memory, and the revocation travels over Redis (the key invalidation channel carries grant and token
// ids). Without Redis the other server would trust its cache for KEY_CACHE_TTL_MS (set to 10 minutes here).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { client, seedBusiness } from "../helpers/api";
import { poll } from "../helpers/db";
import { deleteRedisPrefix, startSecondServer, uniquePrefix, type ServerWithLogs } from "../helpers/usage-db";
import { basic, portalUser, registerClient, tokensFor } from "../helpers/oauth";

const SHARED_REDIS = "redis://127.0.0.1:6379";
const PREFIX = uniquePrefix("oauth-redis");
let A: ServerWithLogs;
let B: ServerWithLogs;

before(async () => {
  const env = { REDIS_URL: SHARED_REDIS, REDIS_PREFIX: PREFIX, KEY_CACHE_TTL_MS: "600000" };
  [A, B] = await Promise.all([startSecondServer(env), startSecondServer(env)]);
  // A server subscribes to the invalidation channel on its first /v1 request: make that happen before the tests.
  const warm = await seedBusiness();
  await Promise.all([A, B].map((s) => client(warm.testKey, s.url).get("/v1/products")));
});

after(async () => {
  await Promise.all([A?.stop(), B?.stop()]);
  await deleteRedisPrefix(SHARED_REDIS, PREFIX);
});

async function revokeOn(server: ServerWithLogs, c: { id: string; secret: string | null }, token: string) {
  const res = await fetch(`${server.url}/oauth/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...basic(c.id, c.secret!) },
    body: new URLSearchParams({ token }),
  });
  assert.equal(res.status, 200);
}

test("a token revoked through server A is refused by server B, which had it cached", async () => {
  const c = await registerClient();
  const { tokens } = await tokensFor(c, await portalUser());
  const onB = client(tokens.access_token, B.url);
  assert.equal((await onB.get("/v1/products")).status, 200);
  assert.equal((await client(tokens.access_token, A.url).get("/v1/products")).status, 200);
  await revokeOn(A, c, tokens.access_token);
  const status = await poll(async () => ((await onB.get("/v1/products")).status === 401 ? 401 : null), 8_000, 50);
  assert.equal(status, 401);
});

test("a refresh token revoked through A ends the grant's access tokens on B", async () => {
  const c = await registerClient();
  const { tokens } = await tokensFor(c, await portalUser());
  const onB = client(tokens.access_token, B.url);
  assert.equal((await onB.get("/v1/products")).status, 200);
  await revokeOn(A, c, tokens.refresh_token!);
  const res = await poll(
    async () => {
      const r = await onB.get("/v1/products");
      return r.status === 401 ? r : null;
    },
    8_000,
    50,
  );
  assert.equal(res?.body.error.code, "ACCESS_TOKEN_REVOKED");
});
