// Usage events and request logs: one of each for every authenticated request (failures and 429s included),
// written off the request's path and never lost on a graceful stop; billable only for live keys with status < 400;
// logs redacted (Authorization, key values, secrets) and cut to 16 KB; the collection filters and their bad input;
// and retention, purged by the jobs (`npm run jobs`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import net from "node:net";
import { newId } from "@/lib/ids";
import { seedBusiness, client, request, expectError, collectAll, type ApiResponse } from "../helpers/api";
import { db, createKey, settledCount, sleep, slowPost, startSecondServer } from "../helpers/usage-db";

const requestId = (res: ApiResponse) => res.headers.get("x-request-id")!;

async function keyIds(businessId: string) {
  // The two keys seedBusiness made (the CLI's bootstrap), not any created since.
  const rows = await db.apiKey.findMany({ where: { businessId, createdBy: "cli" }, select: { id: true, environment: true } });
  return { test: rows.find((r) => r.environment === "test")!.id, live: rows.find((r) => r.environment === "production")!.id };
}

const usageCount = (projectId: string) => db.usageEvent.count({ where: { projectId } });
const logCount = (projectId: string) => db.requestLog.count({ where: { projectId } });

test("every authenticated request, failed ones included, yields exactly one usage event and one request log", async () => {
  const biz = await seedBusiness();
  const created = await biz.test.post("/v1/products", { name: "Metered", type: "API" });
  const responses = [
    created,
    await biz.test.get(`/v1/products/${created.body.data.id}`),
    await biz.test.get("/v1/products/prod_00000000000000000000000000"),
    await biz.test.post("/v1/products", { type: "API" }),
    await biz.test.post("/v1/products", undefined, { "content-type": "application/json" }),
    await biz.test.delete(`/v1/products/${created.body.data.id}`),
  ];
  assert.deepEqual(
    responses.map((r) => r.status),
    [201, 200, 404, 400, 400, 204],
  );
  assert.equal(await settledCount(() => usageCount(biz.projectId), 6), 6);
  assert.equal(await settledCount(() => logCount(biz.projectId), 6), 6);

  const logs = await db.requestLog.findMany({ where: { projectId: biz.projectId } });
  assert.deepEqual(logs.map((l) => l.id).sort(), responses.map(requestId).sort(), "each log is the request's own id");
  const usage = await db.usageEvent.findMany({ where: { projectId: biz.projectId }, orderBy: { timestamp: "asc" } });
  assert.deepEqual(usage.map((u) => u.statusCode).sort(), [200, 201, 204, 400, 400, 404]);
  const notFound = usage.find((u) => u.statusCode === 404)!;
  assert.equal(notFound.endpoint, "/v1/products/{id}", "endpoint is the route pattern");
  assert.equal(notFound.path, "/v1/products/prod_00000000000000000000000000", "path is the concrete one");
  assert.equal(notFound.errorType, "not_found_error");
  assert.equal(usage.find((u) => u.statusCode === 201)!.errorType, null);
});

test("rate-limited requests (429) are metered too, and do not count as billable", async () => {
  const biz = await seedBusiness();
  const k = await createKey(biz.live, { rateLimit: 1 });
  const api = client(k.key);
  const statuses = [(await api.get("/v1/products")).status, (await api.get("/v1/products")).status, (await api.get("/v1/products")).status];
  assert.deepEqual(statuses, [200, 429, 429]);
  const count = () => db.usageEvent.count({ where: { projectId: biz.projectId, apiKey: k.id } });
  assert.equal(await settledCount(count, 3), 3);
  const rows = await db.usageEvent.findMany({ where: { projectId: biz.projectId, apiKey: k.id }, orderBy: { timestamp: "asc" } });
  assert.deepEqual(rows.map((r) => [r.statusCode, r.billable]).sort(), [
    [200, true],
    [429, false],
    [429, false],
  ]);
  assert.ok(
    rows.filter((r) => r.statusCode === 429).every((r) => r.errorType === "rate_limit_error"),
    "errorType of a 429",
  );
  assert.equal(await settledCount(() => db.requestLog.count({ where: { projectId: biz.projectId, apiKey: k.id } }), 3), 3);
});

test("billable: live key and status < 400 only; test traffic never", async () => {
  const biz = await seedBusiness();
  const ids = await keyIds(biz.businessId);
  assert.equal((await biz.live.get("/v1/products")).status, 200);
  assert.equal((await biz.live.get("/v1/products/prod_00000000000000000000000000")).status, 404);
  assert.equal((await biz.test.get("/v1/products")).status, 200);
  assert.equal(await settledCount(() => usageCount(biz.projectId), 3), 3);

  // Through the API: a live key sees live usage only, a test key test usage only.
  const live = await biz.live.get(`/v1/usage?apiKey=${ids.live}&sort=timestamp`);
  assert.equal(live.status, 200, live.text.slice(0, 300));
  const liveRows = live.body.data.filter((u: { endpoint: string }) => u.endpoint.startsWith("/v1/products"));
  assert.deepEqual(
    liveRows.map((u: { statusCode: number; billable: boolean }) => [u.statusCode, u.billable]),
    [
      [200, true],
      [404, false],
    ],
  );
  const ok = liveRows[0];
  assert.equal(ok.apiKey, ids.live);
  assert.equal(ok.method, "GET");
  assert.equal(ok.endpoint, "/v1/products");
  assert.equal(ok.environment, "production");
  assert.equal(ok.projectId, biz.projectId);
  assert.ok(ok.latency >= 0 && ok.responseSize > 0, `latency ${ok.latency}, responseSize ${ok.responseSize}`);
  assert.equal(typeof ok.requestSize, "number");
  assert.equal(ok.ip, "127.0.0.1");
  assert.match(ok.id, /^use_/);
  assert.ok(!Number.isNaN(Date.parse(ok.timestamp)), "timestamp is a date");

  const test_ = await biz.test.get(`/v1/usage?apiKey=${ids.test}`);
  const testRows = test_.body.data.filter((u: { endpoint: string }) => u.endpoint === "/v1/products");
  assert.equal(testRows.length, 1);
  assert.equal(testRows[0].billable, false);
  assert.ok(
    test_.body.data.every((u: { environment: string }) => u.environment === "test"),
    "no live usage through a test key",
  );
});

test("a log holds the portal's fields, bodies on the single log, with Authorization redacted", async () => {
  const biz = await seedBusiness();
  const body = { name: "Logged product", type: "API", description: "visible in the log" };
  const created = await biz.test.post("/v1/products?expand=business", body, { "user-agent": "metering-test/1.0" });
  assert.equal(created.status, 201);
  const id = requestId(created);
  await settledCount(() => db.requestLog.count({ where: { id } }), 1);

  const one = await biz.test.get(`/v1/logs/${id}`);
  assert.equal(one.status, 200, one.text.slice(0, 300));
  const log = one.body.data;
  assert.equal(log.id, id);
  assert.equal(log.method, "POST");
  assert.equal(log.endpoint, "/v1/products");
  assert.equal(log.path, "/v1/products?expand=business");
  assert.equal(log.statusCode, 201);
  assert.equal(log.userAgent, "metering-test/1.0");
  assert.equal(typeof log.latency, "number");
  assert.equal(log.request.headers.authorization, "[REDACTED]");
  assert.equal(log.request.headers["content-type"], "application/json");
  assert.deepEqual(JSON.parse(log.request.body), body);
  assert.equal(JSON.parse(log.response.body).data.id, created.body.data.id);
  assert.equal(log.response.headers["x-request-id"], id);
  assert.ok(log.response.headers["x-ratelimit-limit"], "the response headers as sent, rate-limit ones included");
  assert.ok(!one.text.includes(biz.testKey), "the key itself is nowhere in the log");

  // The list shows headers but leaves the bodies to the single log.
  const listed = await biz.test.get("/v1/logs?method=POST");
  const item = listed.body.data.find((l: { id: string }) => l.id === id);
  assert.ok(item, "the log is listed");
  assert.equal(item.request.body, undefined);
  assert.equal(item.response.body, undefined);
  assert.equal(item.request.headers.authorization, "[REDACTED]");
});

test("a key created through the API never appears unredacted in any log or usage row", async () => {
  const biz = await seedBusiness();
  const made = await biz.test.post("/v1/api-keys", { name: "Secret holder", scopes: ["products:read"] });
  assert.equal(made.status, 201);
  const newKey: string = made.body.data.key;
  assert.match(newKey, /^sk_test_/);
  // Use it both ways: header and the (less secure) query parameter.
  assert.equal((await client(newKey).get("/v1/products")).status, 200);
  const viaQuery = await request("GET", `/v1/products?limit=2&api_key=${newKey}`);
  assert.equal(viaQuery.status, 200);
  assert.equal(await settledCount(() => logCount(biz.projectId), 3), 3);

  const logs = await db.requestLog.findMany({ where: { projectId: biz.projectId } });
  const usage = await db.usageEvent.findMany({ where: { projectId: biz.projectId } });
  for (const secret of [newKey, biz.testKey]) {
    assert.ok(!JSON.stringify(logs).includes(secret), "a key value was stored in a request log");
    assert.ok(!JSON.stringify(usage).includes(secret), "a key value was stored in a usage event");
  }
  const creation = logs.find((l) => l.id === requestId(made))!;
  assert.equal(JSON.parse(creation.responseBody!).data.key, "sk_test_[REDACTED]");
  const queryLog = logs.find((l) => l.id === requestId(viaQuery))!;
  assert.equal(queryLog.path, "/v1/products?limit=2&api_key=[REDACTED]");

  const shown = await biz.test.get(`/v1/logs/${requestId(made)}`);
  assert.ok(!shown.text.includes(newKey), "the API shows the redacted log");
});

test("a webhook secret in a response is redacted in the log", async () => {
  const biz = await seedBusiness();
  const made = await biz.test.post("/v1/webhooks", { url: "http://127.0.0.1:9/hook", events: ["product.created"] });
  if (made.status !== 201) assert.fail(`creating a webhook: ${made.status} ${made.text.slice(0, 200)}`);
  const secret: string = made.body.data.secret;
  assert.match(secret, /^whsec_/);
  await settledCount(() => db.requestLog.count({ where: { id: requestId(made) } }), 1);
  const log = await biz.test.get(`/v1/logs/${requestId(made)}`);
  assert.equal(log.status, 200);
  assert.ok(!log.text.includes(secret), "the webhook secret is in the log");
  assert.ok(!log.text.includes(secret.slice(6, 30)), "part of the webhook secret is in the log");
});

test("bodies over 16 KB are logged cut to 16 KB, marked as cut", async () => {
  const biz = await seedBusiness();
  const big = { name: "Big", type: "API", description: "d".repeat(40_000) };
  const res = await biz.test.post("/v1/products", big);
  assert.equal(res.status, 400, "description is too long: still logged");
  const id = requestId(res);
  await settledCount(() => db.requestLog.count({ where: { id } }), 1);
  const log = (await biz.test.get(`/v1/logs/${id}`)).body.data;
  assert.ok(Buffer.byteLength(log.request.body, "utf8") <= 16 * 1024, `${Buffer.byteLength(log.request.body, "utf8")} bytes logged`);
  assert.ok(log.request.body.startsWith('{"name":"Big","type":"API","description":"ddd'), "the beginning is kept");
  assert.match(log.request.body, /truncated/);
  assert.ok(JSON.parse(log.response.body).error, "the small response body is whole");
});

test("filters on method, statusCode, apiKey, endpoint and a timestamp range", async () => {
  const biz = await seedBusiness();
  const second = await createKey(biz.test);
  const other = client(second.key);
  const ids = await keyIds(biz.businessId);

  const before = await biz.test.get("/v1/products");
  await sleep(30);
  const t0 = new Date().toISOString();
  await sleep(30);
  const inRange = [
    await biz.test.post("/v1/products", { name: "Filtered", type: "API" }),
    await other.get("/v1/products/prod_00000000000000000000000000"),
    await other.get("/v1/products"),
  ];
  await sleep(30);
  const t1 = new Date().toISOString();
  await sleep(30);
  const afterwards = await biz.test.get("/v1/products");
  assert.deepEqual(
    [before, ...inRange, afterwards].map((r) => r.status),
    [200, 201, 404, 200, 200],
  );
  // Five requests, plus the key creation.
  await settledCount(() => logCount(biz.projectId), 6);

  for (const path of ["/v1/logs", "/v1/usage"]) {
    const get = async (query: string) => {
      const res = await biz.test.get(`${path}?limit=100&${query}`);
      assert.equal(res.status, 200, `${path}?${query}: ${res.text.slice(0, 300)}`);
      return res.body.data as {
        id: string;
        method: string;
        statusCode: number;
        apiKey: string;
        endpoint: string;
        timestamp: string;
        path: string;
      }[];
    };
    const idOf = (r: { id: string; path: string; statusCode: number }) => r.id;

    const posts = await get("method=POST");
    assert.ok(posts.length >= 2 && posts.every((r) => r.method === "POST"), `${path} method=POST`);
    const notFound = await get("statusCode=404");
    assert.equal(notFound.length, 1, `${path} statusCode=404`);
    assert.equal(notFound[0].apiKey, second.id);
    const errors = await get("statusCode[gte]=400");
    assert.ok(errors.every((r) => r.statusCode >= 400) && errors.length >= 1, `${path} statusCode[gte]=400`);
    const byKey = await get(`apiKey=${second.id}`);
    assert.equal(byKey.length, 2, `${path} apiKey`);
    assert.ok(
      byKey.every((r) => r.apiKey === second.id),
      `${path} apiKey`,
    );
    const mine = await get(`apiKey=${ids.test}&method=GET&endpoint=/v1/products`);
    assert.ok(
      mine.length >= 2 && mine.every((r) => r.apiKey === ids.test && r.method === "GET" && r.endpoint === "/v1/products"),
      `${path} combined`,
    );
    const either = await get(`statusCode=201,404`);
    assert.deepEqual(either.map((r) => r.statusCode).sort(), [201, 201, 404], `${path} statusCode list (key and product created, one 404)`);

    const ranged = await get(`timestamp[gte]=${t0}&timestamp[lt]=${t1}`);
    assert.equal(ranged.length, 3, `${path} timestamp range: ${ranged.map((r) => `${r.method} ${r.path}`).join(", ")}`);
    assert.ok(
      ranged.every((r) => r.timestamp >= t0 && r.timestamp < t1),
      `${path} range bounds`,
    );
    if (path === "/v1/logs") assert.deepEqual(ranged.map(idOf).sort(), inRange.map(requestId).sort());
    const newestFirst = ranged.map((r) => r.timestamp);
    assert.deepEqual(newestFirst, [...newestFirst].sort().reverse(), `${path} newest first by default`);
  }
});

test("logs page with a cursor, each log once", async () => {
  const biz = await seedBusiness();
  for (let i = 0; i < 7; i++) await biz.test.get(`/v1/products?limit=${i + 1}`);
  await settledCount(() => logCount(biz.projectId), 7);
  const { ids, pages } = await collectAll(biz.test, "/v1/logs?limit=3&endpoint=/v1/products");
  assert.equal(ids.length, 7);
  assert.equal(new Set(ids).size, 7);
  assert.equal(pages[0].pagination.total, 7);
});

test("bad input to the usage and log collections is a 400 envelope", async () => {
  const biz = await seedBusiness();
  for (const path of ["/v1/logs", "/v1/usage"]) {
    const cases: [string, string, string][] = [
      ["timestamp[gte]=2026-02-01T00:00:00Z&timestamp[lt]=2026-01-01T00:00:00Z", "INVALID_PARAMETER", "timestamp"],
      ["timestamp[gt]=2026-03-01&timestamp[lte]=2026-02-28", "INVALID_PARAMETER", "timestamp"],
      ["statusCode[gte]=500&statusCode[lt]=400", "INVALID_PARAMETER", "statusCode"],
      ["limit=0", "INVALID_PARAMETER", "limit"],
      ["limit=101", "INVALID_PARAMETER", "limit"],
      ["limit=1000000000000", "INVALID_PARAMETER", "limit"],
      ["limit=-5", "INVALID_PARAMETER", "limit"],
      ["limit=ten", "INVALID_PARAMETER", "limit"],
      ["statusCode=abc", "INVALID_PARAMETER", "statusCode"],
      ["method=FETCH", "INVALID_PARAMETER", "method"],
      ["timestamp[gte]=yesterday", "INVALID_PARAMETER", "timestamp"],
      ["bogus=1", "INVALID_FILTER", "bogus"],
    ];
    for (const [query, code, field] of cases) {
      const res = await biz.test.get(`${path}?${query}`);
      const e = expectError(res, 400, code);
      assert.equal(e.type, "validation_error", `${path}?${query}`);
      assert.equal(e.field, field, `${path}?${query}`);
    }
  }
  expectError(await biz.test.get("/v1/logs/not-a-log-id"), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.get(`/v1/logs/${newId("request")}`), 404, "RESOURCE_NOT_FOUND");
});

test("a log belongs to its business and environment", async () => {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const res = await a.test.get("/v1/products");
  const liveRes = await a.live.get("/v1/products");
  await settledCount(() => db.requestLog.count({ where: { id: { in: [requestId(res), requestId(liveRes)] } } }), 2);
  assert.equal((await a.test.get(`/v1/logs/${requestId(res)}`)).status, 200);
  expectError(await b.test.get(`/v1/logs/${requestId(res)}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await a.test.get(`/v1/logs/${requestId(liveRes)}`), 404, "RESOURCE_NOT_FOUND");
  assert.equal((await a.live.get(`/v1/logs/${requestId(liveRes)}`)).status, 200);
  const listed = await b.test.get("/v1/logs?limit=100");
  assert.ok(!listed.body.data.some((l: { id: string }) => l.id === requestId(res)), "another business's log is listed");
});

test("a graceful stop writes every queued usage event, log and rollup before the process exits", async () => {
  const biz = await seedBusiness();
  // Flush timers far beyond the test: whatever reaches the database is written by the shutdown flush.
  const server = await startSecondServer({ USAGE_FLUSH_MS: "600000", ROLLUP_FLUSH_MS: "600000" });
  let stopped = false;
  try {
    const api = client(biz.testKey, server.url);
    const statuses = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await api.get(i % 3 === 2 ? "/v1/products/prod_00000000000000000000000000" : "/v1/products")).status);
    assert.equal(statuses.filter((s) => s === 200).length, 8);
    await sleep(300);
    assert.equal(await usageCount(biz.projectId), 0, "nothing written before the stop (the timers are long)");
    await server.stop();
    stopped = true;
  } finally {
    if (!stopped) await server.stop();
  }
  assert.equal(await usageCount(biz.projectId), 12);
  assert.equal(await logCount(biz.projectId), 12);
  const rollups = await db.usageRollup.aggregate({ _sum: { count: true }, where: { projectId: biz.projectId } });
  assert.equal(rollups._sum.count, 12);
});

test("a request in flight when the server is told to stop is answered, and metered", async () => {
  const biz = await seedBusiness();
  const server = await startSecondServer({ USAGE_FLUSH_MS: "600000", ROLLUP_FLUSH_MS: "600000" });
  let stopping: Promise<void> | undefined;
  try {
    assert.equal((await client(biz.testKey, server.url).get("/v1/products")).status, 200);
    const slow = slowPost(server.url, biz.testKey, "/v1/products", { name: "Finished during shutdown", type: "API" });
    await sleep(300); // admitted, waiting for the rest of its body
    stopping = server.stop(); // SIGTERM
    await sleep(300);
    const done = await slow.finish().catch((e: Error) => ({ status: 0, body: e.message }));
    assert.equal(done.status, 201, `the request in flight was cut off by the stop: ${done.body}`);
    await stopping;
  } finally {
    await (stopping ?? server.stop());
  }
  assert.equal(await usageCount(biz.projectId), 2, "both requests are metered");
  assert.deepEqual((await db.usageEvent.findMany({ where: { projectId: biz.projectId } })).map((u) => u.statusCode).sort(), [200, 201]);
});

test("a stop held open by a client stalled halfway through its request still writes the usage of the calls that finished", async () => {
  const biz = await seedBusiness();
  const server = await startSecondServer({ USAGE_FLUSH_MS: "600000", ROLLUP_FLUSH_MS: "600000" });
  const { hostname, port } = new URL(server.url);
  const stalled = net.connect(Number(port), hostname);
  stalled.on("error", () => {});
  const connected = new Promise((r) => stalled.once("connect", r));
  try {
    assert.equal((await client(biz.testKey, server.url).get("/v1/products")).status, 200);
    await connected;
    // A head without its blank line: the request never ends, so the drain can never finish it.
    stalled.write(`GET /v1/products HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${biz.testKey}\r\n`);
    await sleep(300);
    assert.equal(await usageCount(biz.projectId), 0, "nothing written before the stop (the timers are long)");
    // SIGTERM; the helper's SIGKILL 5 s later ends the drain the stalled connection holds open.
    await server.stop();
  } finally {
    stalled.destroy();
    await server.stop();
  }
  assert.equal(await usageCount(biz.projectId), 1, "the finished call's usage event was written while the stop waited");
});

test("retention: `npm run jobs` purges logs older than the project's retention and keeps the rest", async () => {
  const short = await seedBusiness();
  const normal = await seedBusiness();
  await db.project.update({ where: { id: short.projectId }, data: { retentionDays: 7 } });
  const DAY = 86_400_000;
  const row = (projectId: string, businessId: string, daysAgo: number) => ({
    id: newId("request"),
    timestamp: new Date(Date.now() - daysAgo * DAY),
    businessId,
    projectId,
    environment: "test",
    apiKey: "key_x",
    method: "GET",
    endpoint: "/v1/products",
    path: "/v1/products",
    statusCode: 200,
    latency: 1,
    requestHeaders: {},
    responseHeaders: {},
  });
  const rows = {
    shortOld: row(short.projectId, short.businessId, 8),
    shortNew: row(short.projectId, short.businessId, 6),
    normalMid: row(normal.projectId, normal.businessId, 8),
    normalOld: row(normal.projectId, normal.businessId, 31),
  };
  await db.requestLog.createMany({ data: Object.values(rows) });

  const run = spawnSync("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/jobs.ts"], {
    env: process.env,
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.equal(run.status, 0, `npm run jobs failed: ${run.stderr}`);
  assert.match(run.stdout, /purge-logs/);

  const left = new Set(
    (await db.requestLog.findMany({ where: { id: { in: Object.values(rows).map((r) => r.id) } }, select: { id: true } })).map((r) => r.id),
  );
  assert.equal(left.has(rows.shortOld.id), false, "8 days old, retention 7: purged");
  assert.equal(left.has(rows.shortNew.id), true, "6 days old, retention 7: kept");
  assert.equal(left.has(rows.normalMid.id), true, "8 days old, default retention 30: kept");
  assert.equal(left.has(rows.normalOld.id), false, "31 days old, default retention 30: purged");
  expectError(await short.test.get(`/v1/logs/${rows.shortOld.id}`), 404, "RESOURCE_NOT_FOUND");
  assert.equal((await short.test.get(`/v1/logs/${rows.shortNew.id}`)).status, 200);
});
