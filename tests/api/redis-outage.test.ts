// Issue 41, item 1: Redis stops for OUTAGE_TEST_SECONDS (default 20) in the middle of a paced load through /gw and /v1
// over two server processes, then starts again. The test runs its own redis-server (tests/helpers/redis-server.ts),
// never the machine's. What docs/operations.md promises, line by line:
//  - no answer is a 500; every answer given on the per-process fallback says `X-Platform-Degraded: limiter`;
//  - a price's limits declared open are counted per process within its share (the limit over the two processes), so
//    the two together admit the limit exactly; declared closed, and prepaid credits, answer 503 LIMITER_UNAVAILABLE
//    with Retry-After;
//  - a key revoked during the outage is refused by the other process within the bus-down cache bound;
//  - /readyz is not ready while Redis is down, and ready again after;
//  - the log says platform.degraded and platform.recovered; when Redis is back the limits are shared and exact again;
//  - every gateway call answered has its usage event.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { db } from "@/lib/db/client";
import { client, seedBusiness } from "../helpers/api";
import { publishApiProduct, subscribe } from "../helpers/marketplace";
import { startSecondServer, type ServerWithLogs } from "../helpers/usage-db";
import { startJsonUpstream, type JsonUpstream } from "../helpers/json-upstream";
import { startOwnRedis, type OwnRedis } from "../helpers/redis-server";
import { sleep } from "../helpers/receiver";

const OUTAGE_MS = Number(process.env.OUTAGE_TEST_SECONDS ?? 20) * 1000;
// The bus-down cache bound (lib/redis/bus.ts) and a margin for the poll.
const REVOKED_WITHIN_MS = 2000 + 1500;

let redis: OwnRedis;
let upstream: JsonUpstream;
const servers: ServerWithLogs[] = [];

before(async () => {
  upstream = await startJsonUpstream();
  redis = await startOwnRedis();
  const env = {
    ALLOW_PRIVATE_URLS: "true",
    REDIS_URL: redis.url,
    REDIS_PREFIX: `outage-${Date.now().toString(36)}:`,
    DATA_PLANE_WORKERS: "1",
    LIMITER_HEARTBEAT_MS: "1000",
  };
  servers.push(await startSecondServer(env), await startSecondServer(env));
});
after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await redis?.stop();
  upstream?.close();
});

interface Answer {
  status: number;
  code: string | null;
  degraded: string | null;
  retryAfter: string | null;
  requestId: string | null;
}

async function call(base: string, path: string, key: string): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.text();
  let code: string | null = null;
  try {
    code = JSON.parse(text)?.error?.code ?? null;
  } catch {
    /* an upstream's body */
  }
  return {
    status: res.status,
    code,
    degraded: res.headers.get("x-platform-degraded"),
    retryAfter: res.headers.get("retry-after"),
    requestId: res.headers.get("x-request-id"),
  };
}

const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

test(
  "Redis down for a while under load over two processes: declared modes, no 500, recovery, nothing lost",
  { timeout: 180_000 },
  async () => {
    const [a, b] = servers;
    const provider = await seedBusiness();
    const api = client(provider.testKey, a.url);
    // Open (the default): 6 calls a day between both processes. Closed: refused while the limiter is unreachable.
    const open = await publishApiProduct(api, { upstreamUrl: upstream.url, price: { rateLimit: { limit: 6, windowSeconds: 86_400 } } });
    const closed = await publishApiProduct(api, {
      upstreamUrl: upstream.url,
      price: { rateLimit: { limit: 1000, windowSeconds: 86_400 }, onLimiterOutage: "closed" },
    });
    const prepaid = await publishApiProduct(api, { upstreamUrl: upstream.url, price: { billing: "prepaid" } });
    const after = await publishApiProduct(api, { upstreamUrl: upstream.url, price: { rateLimit: { limit: 4, windowSeconds: 86_400 } } });
    assert.equal(closed.price.onLimiterOutage, "closed");
    assert.equal(open.price.onLimiterOutage, "open");
    const consumer = await seedBusiness();
    const mine = client(consumer.testKey, a.url);
    for (const p of [open, closed, prepaid, after]) await subscribe(mine, p.price.id);
    const prepaidSub = (await mine.get("/v1/subscriptions")).body.data.find((s: { priceId: string }) => s.priceId === prepaid.price.id);
    assert.equal((await mine.post(`/v1/subscriptions/${prepaidSub.id}/credits`, { amount: 5 })).status, 201);
    const spare = await mine.post("/v1/api-keys", { name: "to revoke", scopes: ["products:read"] });
    assert.equal(spare.status, 201, spare.text);
    const spareKey = spare.body.data.key as string;

    // Up: no answer says degraded, and both processes have each other in the heartbeat.
    const up = await call(b.url, "/v1/products", consumer.testKey);
    assert.equal(up.status, 200);
    assert.equal(up.degraded, null);
    assert.equal((await call(b.url, `/gw/${prepaid.slug}/x`, consumer.testKey)).status, 200);
    assert.equal((await call(b.url, "/v1/products", spareKey)).status, 200, "the spare key works before the outage");
    await sleep(2_500); // two heartbeats of each: both count 2 processes

    // ── Redis goes away.
    await redis.stop();
    const outageStarted = Date.now();
    const seen = { v1: [] as Answer[], open: [] as Answer[], closed: [] as Answer[], prepaid: [] as Answer[] };
    let revokedAt = 0;
    let refusedAfterMs: number | null = null;
    let readyDuringOutage: number[] = [];
    for (let i = 0; Date.now() - outageStarted < OUTAGE_MS; i++) {
      const s = servers[i % 2];
      const [v1, o, c, p] = await Promise.all([
        call(s.url, "/v1/products", consumer.testKey),
        call(s.url, `/gw/${open.slug}/x`, consumer.testKey),
        call(s.url, `/gw/${closed.slug}/x`, consumer.testKey),
        call(s.url, `/gw/${prepaid.slug}/x`, consumer.testKey),
      ]);
      seen.v1.push(v1);
      seen.open.push(o);
      seen.closed.push(c);
      seen.prepaid.push(p);
      if (i === 8) {
        // Revoked through one process while the bus's Redis is gone; the other must stop honouring it soon.
        const revoked = await client(consumer.testKey, a.url).delete(`/v1/api-keys/${spare.body.data.id}`);
        assert.ok(revoked.status === 200 || revoked.status === 204, revoked.text);
        revokedAt = Date.now();
        readyDuringOutage = await Promise.all(servers.map(async (x) => (await fetch(`${x.url}/readyz`)).status));
      }
      if (revokedAt && refusedAfterMs === null) {
        const r = await call(b.url, "/v1/products", spareKey);
        if (r.status === 401) refusedAfterMs = Date.now() - revokedAt;
      }
      await sleep(250);
    }
    const all = [...seen.v1, ...seen.open, ...seen.closed, ...seen.prepaid];
    assert.equal(
      all.filter((x) => x.status >= 500 && x.code !== "LIMITER_UNAVAILABLE").length,
      0,
      JSON.stringify(all.filter((x) => x.status >= 500)),
    );
    assert.ok(
      seen.v1.every((x) => x.status === 200 && x.degraded === "limiter"),
      JSON.stringify(seen.v1.slice(0, 5)),
    );
    // Open: each process admits its share (6 / 2), so the two together admit the limit, not twice it.
    assert.equal(count(seen.open, 200), 6, JSON.stringify(seen.open.map((x) => x.status)));
    assert.ok(seen.open.every((x) => (x.status === 200 || x.code === "RATE_LIMIT_EXCEEDED") && x.degraded === "limiter"));
    for (const x of [...seen.closed, ...seen.prepaid]) {
      assert.equal(x.status, 503);
      assert.equal(x.code, "LIMITER_UNAVAILABLE");
      assert.equal(x.retryAfter, "5");
      assert.equal(x.degraded, "limiter");
    }
    assert.ok(refusedAfterMs !== null && refusedAfterMs <= REVOKED_WITHIN_MS, `the revoked key was refused after ${refusedAfterMs} ms`);
    assert.deepEqual(readyDuringOutage, [503, 503], "/readyz is not ready while Redis is down");

    // ── Redis comes back: both processes leave the fallback by themselves.
    await redis.start();
    const back = Date.now();
    for (const s of servers) {
      for (;;) {
        const r = await call(s.url, "/v1/products", consumer.testKey);
        assert.equal(r.status, 200);
        if (r.degraded === null) break;
        assert.ok(Date.now() - back < 15_000, "still degraded 15 s after Redis returned");
        await sleep(200);
      }
      assert.equal((await fetch(`${s.url}/readyz`)).status, 200);
    }
    console.log(`# recovered ${((Date.now() - back) / 1000).toFixed(1)} s after Redis returned`);
    for (const s of servers) {
      const log = s.stderr();
      assert.match(log, /"event":"platform\.degraded","component":"limiter"/);
      assert.match(log, /"event":"platform\.recovered","component":"limiter"/);
    }
    // Shared and exact again: 4 of 8 calls over both processes, none degraded.
    const afterAnswers: Answer[] = [];
    for (let i = 0; i < 8; i++) afterAnswers.push(await call(servers[i % 2].url, `/gw/${after.slug}/x`, consumer.testKey));
    assert.deepEqual(
      afterAnswers.map((x) => x.status),
      [200, 200, 200, 200, 429, 429, 429, 429],
    );
    assert.ok(afterAnswers.every((x) => x.degraded === null));
    assert.equal((await call(a.url, `/gw/${closed.slug}/x`, consumer.testKey)).status, 200, "closed limits answer again");

    // The request log keeps what the answer said: degraded, on /v1 and on the gateway.
    for (const answer of [seen.v1[0], seen.open[0]]) {
      let log = null;
      for (let i = 0; i < 50 && !log; i++, await sleep(200)) log = await db.requestLog.findFirst({ where: { id: answer.requestId! } });
      assert.equal((log?.responseHeaders as Record<string, string> | undefined)?.["x-platform-degraded"], "limiter", JSON.stringify(log));
    }

    // Every gateway call answered was recorded (refusals have events of their own, not counted here).
    const answered = { [open.product.id]: count(seen.open, 200), [after.product.id]: 4 };
    for (const [productId, n] of Object.entries(answered)) {
      const deadline = Date.now() + 15_000;
      let rows = 0;
      while (Date.now() < deadline && (rows = await db.usageEvent.count({ where: { productId, statusCode: 200 } })) < n) await sleep(200);
      assert.equal(rows, n, `usage events of ${productId}`);
    }
  },
);
