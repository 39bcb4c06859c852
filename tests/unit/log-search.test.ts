// The portal's log filters (lib/usage/log-search.ts) and "Copy as curl" (components/portal/curl-command.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { logWhere, parseLogFilters } from "@/lib/usage/log-search";
import { curlCommand } from "@/components/portal/curl-command";
import { ApiError } from "@/lib/http/errors";

const parse = (qs: string) => parseLogFilters(new URLSearchParams(qs));

test("a status class, method, path prefix, key and preset become one where", () => {
  const at = new Date("2026-05-01T12:00:00Z");
  const where = logWhere(parse("status=5xx&method=post&path=/v1/products&key=key_1&range=24h"), at);
  assert.deepEqual(where, [
    { statusCode: { gte: 500, lt: 600 } },
    { method: "POST" },
    { path: { startsWith: "/v1/products" } },
    { apiKey: "key_1" },
    { timestamp: { gte: new Date("2026-04-30T12:00:00Z") } },
  ]);
});

test("explicit from and to win over a preset", () => {
  const where = logWhere(parse("range=1h&from=2026-05-01T10:00:00.000Z&to=2026-05-01T11:00:00.000Z"));
  assert.deepEqual(where, [
    { timestamp: { gte: new Date("2026-05-01T10:00:00Z") } },
    { timestamp: { lte: new Date("2026-05-01T11:00:00Z") } },
  ]);
});

test("no filters, no conditions", () => {
  assert.deepEqual(logWhere(parse("")), []);
});

test("bad filters are a 400 naming the parameter, in words", () => {
  for (const [qs, field, words] of [
    ["status=6xx", "status", "2xx, 3xx, 4xx or 5xx"],
    ["method=BREW", "method", "Method must be one of"],
    ["range=2y", "range", "1h, 24h, 7d or 30d"],
    ["from=yesterday", "from", "must be a date and time"],
    ["from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z", "from", "after"],
  ] as const) {
    assert.throws(
      () => parse(qs),
      (e: unknown) => e instanceof ApiError && e.status === 400 && e.field === field && e.message.includes(words),
      qs,
    );
  }
});

test("copy as curl: method, URL, headers worth sending, body; the key from $API_KEY; quotes escaped", () => {
  const cmd = curlCommand("http://localhost:3000/", {
    method: "POST",
    path: "/v1/products?x=1",
    headers: {
      authorization: "[REDACTED]",
      host: "localhost:3000",
      "content-type": "application/json",
      "idempotency-key": "abc",
      "x-note": "it's here",
      "x-secret": "sk_test_[REDACTED]",
    },
    body: `{"name":"O'Brien"}`,
  });
  assert.equal(
    cmd,
    [
      `curl -X POST 'http://localhost:3000/v1/products?x=1'`,
      `  -H "Authorization: Bearer $API_KEY"`,
      `  -H 'content-type: application/json'`,
      `  -H 'idempotency-key: abc'`,
      `  -H 'x-note: it'\\''s here'`,
      `  --data-raw '{"name":"O'\\''Brien"}'`,
    ].join(" \\\n"),
  );
});
