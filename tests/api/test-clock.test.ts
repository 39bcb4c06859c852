// /api/test-clock moves time for everyone on a server, so it is an administrator's endpoint: it exists only with
// PLATFORM_TEST_CLOCK=true and PLATFORM_ADMIN_TOKEN both set, and every call (reads included) must carry
// `Authorization: Bearer <PLATFORM_ADMIN_TOKEN>`. Servers of their own on the suite's database, with the worker and
// jobs off so a moved clock never touches other tests' rows.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { expectError, request } from "../helpers/api";
import { startServer, type TestServer } from "../helpers/server";
import { TEST_ADMIN_TOKEN } from "../helpers/receiver";

const HOUR = 3_600_000;
let both: TestServer, clockOnly: TestServer, tokenOnly: TestServer;

before(async () => {
  const base = {
    DATABASE_URL: process.env.DATABASE_URL!,
    KEY_HASH_SECRET: process.env.KEY_HASH_SECRET!,
    WEBHOOK_WORKER: "false",
    JOBS_IN_SERVER: "false",
  };
  [both, clockOnly, tokenOnly] = await Promise.all([
    startServer({ ...base, PLATFORM_TEST_CLOCK: "true", PLATFORM_ADMIN_TOKEN: TEST_ADMIN_TOKEN }),
    startServer({ ...base, PLATFORM_TEST_CLOCK: "true", PLATFORM_ADMIN_TOKEN: "" }),
    startServer({ ...base, PLATFORM_TEST_CLOCK: "false", PLATFORM_ADMIN_TOKEN: TEST_ADMIN_TOKEN }),
  ]);
});

after(async () => {
  await Promise.all([both?.stop(), clockOnly?.stop(), tokenOnly?.stop()]);
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const offsetOf = async (server: TestServer) => {
  const res = await request("GET", "/api/test-clock", { base: server.url, headers: bearer(TEST_ADMIN_TOKEN) });
  assert.equal(res.status, 200, res.text);
  return res.body.offsetMs as number;
};

test("without the administrator's token every call is a 401 and the clock does not move", async () => {
  const refused: Record<string, string>[] = [
    {},
    bearer(""),
    bearer("wrong"),
    bearer(`${TEST_ADMIN_TOKEN}x`),
    bearer(TEST_ADMIN_TOKEN.slice(0, -1)),
    { authorization: TEST_ADMIN_TOKEN },
    { authorization: `Basic ${TEST_ADMIN_TOKEN}` },
    { "x-admin-token": TEST_ADMIN_TOKEN },
  ];
  for (const headers of refused) {
    for (const method of ["GET", "POST"]) {
      const res = await request(method, "/api/test-clock", {
        base: both.url,
        headers,
        body: method === "POST" ? { advanceMs: 24 * HOUR } : undefined,
      });
      const e = expectError(res, 401, "INVALID_ADMIN_TOKEN");
      assert.equal(e.type, "authentication_error");
      assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
      assert.ok(!res.text.includes(TEST_ADMIN_TOKEN), "the answer never echoes the token");
    }
  }
  assert.equal(await offsetOf(both), 0);
});

test("with the token the clock reads and moves", async () => {
  const moved = await request("POST", "/api/test-clock", {
    base: both.url,
    headers: bearer(TEST_ADMIN_TOKEN),
    body: { advanceMs: 2 * HOUR },
  });
  assert.equal(moved.status, 200, moved.text);
  assert.equal(moved.body.offsetMs, 2 * HOUR);
  assert.ok(Math.abs(new Date(moved.body.now).getTime() - (Date.now() + 2 * HOUR)) < 60_000);
  assert.equal(await offsetOf(both), 2 * HOUR);
  const reset = await request("POST", "/api/test-clock", { base: both.url, headers: bearer(TEST_ADMIN_TOKEN), body: { offsetMs: 0 } });
  assert.equal(reset.status, 200, reset.text);
});

test("PLATFORM_TEST_CLOCK=true without PLATFORM_ADMIN_TOKEN: the endpoint does not exist, whatever is sent", async () => {
  for (const headers of [{}, bearer(""), bearer("undefined"), bearer(TEST_ADMIN_TOKEN)]) {
    expectError(await request("GET", "/api/test-clock", { base: clockOnly.url, headers }), 404, "ROUTE_NOT_FOUND");
    expectError(
      await request("POST", "/api/test-clock", { base: clockOnly.url, headers, body: { advanceMs: HOUR } }),
      404,
      "ROUTE_NOT_FOUND",
    );
  }
});

test("PLATFORM_ADMIN_TOKEN without PLATFORM_TEST_CLOCK=true, or neither (the suite's server): 404", async () => {
  for (const base of [tokenOnly.url, undefined]) {
    expectError(await request("GET", "/api/test-clock", { base, headers: bearer(TEST_ADMIN_TOKEN) }), 404, "ROUTE_NOT_FOUND");
    expectError(
      await request("POST", "/api/test-clock", { base, headers: bearer(TEST_ADMIN_TOKEN), body: { advanceMs: HOUR } }),
      404,
      "ROUTE_NOT_FOUND",
    );
  }
});
