// What a request log may keep: no credential or secret in headers, bodies or paths, and at most 16 KB of each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { MAX_LOGGED_BYTES, redactBody, redactHeaders, redactText, truncate } from "@/lib/usage/redact";
import { NodeHeaders } from "@/lib/http/header-reader";

const testKey = () => `sk_test_${randomBytes(32).toString("base64url")}`;
const liveKey = () => `sk_live_${randomBytes(32).toString("base64url")}`;
const whsec = () => `whsec_${randomBytes(32).toString("base64")}`;

test("the Authorization header and other credential headers are replaced whole", () => {
  const key = testKey();
  const out = redactHeaders([
    ["Authorization", `Bearer ${key}`],
    ["Proxy-Authorization", "Basic dXNlcjpwYXNz"],
    ["Cookie", "session=abc123"],
    ["X-API-Key", key],
    ["Content-Type", "application/json"],
  ]);
  assert.equal(out.authorization, "[REDACTED]");
  assert.equal(out["proxy-authorization"], "[REDACTED]");
  assert.equal(out.cookie, "[REDACTED]");
  assert.equal(out["x-api-key"], "[REDACTED]");
  assert.equal(out["content-type"], "application/json", "ordinary headers are kept");
  assert.ok(!JSON.stringify(out).includes(key), `key left in ${JSON.stringify(out)}`);
});

test("a key value in any other header is redacted too", () => {
  const key = liveKey();
  const out = redactHeaders([
    ["Referer", `https://example.com/?api_key=${key}`],
    ["X-Debug", `token is ${key}`],
  ]);
  assert.ok(!JSON.stringify(out).includes(key), `key left in ${JSON.stringify(out)}`);
  assert.match(out["x-debug"], /sk_live_\[REDACTED\]/);
});

test("the server's own client-ip header is not logged", () => {
  const out = redactHeaders([
    ["x-platform-client-ip", "10.0.0.1"],
    ["accept", "*/*"],
  ]);
  assert.deepEqual(out, { accept: "*/*" });
});

test("node:http's headers, a plain record and pairs are logged alike (repeated headers joined, the size limit kept)", () => {
  const key = testKey();
  const raw = { authorization: `Bearer ${key}`, "x-debug": `token ${key}`, "x-forwarded-for": ["10.0.0.1", "10.0.0.2"], accept: "*/*" };
  const pairs: [string, string][] = [
    ["authorization", `Bearer ${key}`],
    ["x-debug", `token ${key}`],
    ["x-forwarded-for", "10.0.0.1, 10.0.0.2"],
    ["accept", "*/*"],
  ];
  const expected = redactHeaders(pairs);
  assert.equal(expected["x-debug"], "token sk_test_[REDACTED]");
  assert.deepEqual(redactHeaders(new NodeHeaders(raw)), expected);
  assert.deepEqual(redactHeaders(Object.fromEntries(pairs)), expected);
  const big = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`x-h${i}`, "v".repeat(1000)]));
  for (const logged of [redactHeaders(big), redactHeaders(new NodeHeaders(big))]) {
    assert.equal(Object.keys(logged).length, 16, "headers past 16 KB are left out (16 of about 1 KB fit)");
    assert.deepEqual(Object.keys(logged), Object.keys(big).slice(0, 16));
  }
});

test("header names are lower-cased", () => {
  assert.deepEqual(Object.keys(redactHeaders([["X-Request-Id", "req_1"]])), ["x-request-id"]);
});

test("test and live keys, webhook secrets and api_key parameters vanish from text", () => {
  const [t, l, w] = [testKey(), liveKey(), whsec()];
  const text = `key ${t} and ${l}; secret ${w}; url /v1/products?limit=5&api_key=${t}&x=1`;
  const out = redactText(text);
  for (const secret of [t, l, w]) assert.ok(!out.includes(secret), `${secret.slice(0, 10)}… left in ${out}`);
  assert.match(out, /sk_test_\[REDACTED\]/);
  assert.match(out, /sk_live_\[REDACTED\]/);
  assert.match(out, /whsec_\[REDACTED\]/);
  assert.match(out, /[?&]api_key=\[REDACTED\]&x=1/);
  assert.match(out, /limit=5/, "the rest of the text is kept");
});

test("secret-named JSON fields are redacted whatever their value looks like", () => {
  const body = JSON.stringify({
    name: "Webhook",
    secret: "hunter2",
    client_secret: "cs_123",
    password: 'p@ss"word',
    token: "t",
    access_token: "a",
    refresh_token: "r",
    api_key: "plain",
    apiKey: "plain2",
    signingSecret: "s",
  });
  const out = JSON.parse(redactBody(body)!);
  assert.equal(out.name, "Webhook");
  for (const k of ["secret", "client_secret", "password", "token", "access_token", "refresh_token", "api_key", "apiKey", "signingSecret"]) {
    assert.equal(out[k], "[REDACTED]", k);
  }
});

test("a created key in a response body is redacted and the body stays valid JSON", () => {
  const key = testKey();
  const body = JSON.stringify({ data: { id: "key_1", key, prefix: "sk_test_", lastFour: key.slice(-4) }, meta: { requestId: "req_1" } });
  const out = redactBody(body)!;
  assert.ok(!out.includes(key), `key left in ${out}`);
  assert.equal(JSON.parse(out).data.key, "sk_test_[REDACTED]");
  assert.equal(JSON.parse(out).data.prefix, "sk_test_", "a bare prefix is not a key");
});

test("an empty or absent body is logged as null", () => {
  assert.equal(redactBody(null), null);
  assert.equal(redactBody(undefined), null);
  assert.equal(redactBody(""), null);
});

test("a body up to 16 KB is kept whole", () => {
  const body = "x".repeat(MAX_LOGGED_BYTES);
  assert.equal(redactBody(body), body);
  assert.equal(MAX_LOGGED_BYTES, 16 * 1024);
});

test("a longer body is cut to at most 16 KB, keeps its beginning and says it was cut", () => {
  for (const size of [MAX_LOGGED_BYTES + 1, 40_000, 2_000_000]) {
    const body = `{"name":"start"}${"y".repeat(size)}`;
    const out = redactBody(body)!;
    assert.ok(Buffer.byteLength(out, "utf8") <= MAX_LOGGED_BYTES, `${Buffer.byteLength(out, "utf8")} bytes logged for a ${size}-byte body`);
    assert.ok(out.startsWith('{"name":"start"}yyy'), "the beginning is kept");
    assert.match(out, /truncated/);
  }
});

test("truncation never splits a multi-byte character", () => {
  const out = truncate("é".repeat(MAX_LOGGED_BYTES)); // 2 bytes each: twice the limit
  assert.ok(Buffer.byteLength(out, "utf8") <= MAX_LOGGED_BYTES, `${Buffer.byteLength(out, "utf8")} bytes`);
  assert.ok(!out.includes("\uFFFD"), "no replacement character from a split sequence");
  assert.match(out, /^é+/);
});

test("a key past the logged size cannot leak in part: it is redacted before the final cut", () => {
  const key = testKey();
  const body = `${"z".repeat(MAX_LOGGED_BYTES - 20)}${key}${"z".repeat(100)}`;
  const out = redactBody(body)!;
  assert.ok(!out.includes(key.slice(8, 24)), "no run of the key's secret part is kept");
});

test("headers are kept up to 16 KB in total", () => {
  const many: [string, string][] = Array.from({ length: 100 }, (_, i) => [`x-h${i}`, "v".repeat(500)]);
  const out = redactHeaders(many);
  const size = Object.entries(out).reduce((s, [k, v]) => s + k.length + v.length, 0);
  assert.ok(size <= MAX_LOGGED_BYTES, `${size} bytes of headers kept`);
  assert.ok(Object.keys(out).length >= 30, "as many headers as fit are kept");
});

// Percent-encoding (a key pasted into a URL, a form or a JSON string) and JSON's \u escapes hide a key from a
// pattern that looks only for its raw shape.
const pct = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`).join("");
const oauthToken = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;

test("a percent-encoded key is redacted, however much of it is encoded", () => {
  const key = liveKey();
  for (const encoded of [
    pct(key),
    key.replace(/_/g, "%5F"),
    key.replace(/_/g, "%5f"),
    `${pct("sk_live_")}${key.slice(8)}`,
    key.replace(/_/g, "%255F"),
  ]) {
    const body = JSON.stringify({ note: `pasted ${encoded} here`, url: `https://example.com/cb?k=${encoded}` });
    const out = redactBody(body)!;
    assert.ok(!out.includes(encoded), `encoded key left in ${out}`);
    assert.ok(!out.includes(key.slice(8, 30)), `key material left in ${out}`);
    assert.equal(JSON.parse(out).note.startsWith("pasted "), true, "the body stays valid JSON and keeps its text");
  }
});

test("a key written with JSON \\u escapes is redacted", () => {
  const key = testKey();
  const body = `{"note":"${key.replace(/_/g, "\\u005f")}"}`;
  assert.equal(JSON.parse(body).note, key, "the escaped text is the key");
  const out = redactBody(body)!;
  assert.ok(!out.includes(key.slice(8, 30)), `key material left in ${out}`);
  assert.doesNotThrow(() => JSON.parse(out));
});

test("access and refresh tokens, client secrets and codes are redacted raw or percent-encoded, after any character", () => {
  for (const prefix of ["oat_", "ort_", "ocs_", "ocd_"]) {
    const token = oauthToken(prefix);
    for (const text of [`Bearer ${token}`, `q=Bearer%20${token}`, `x=1%2C${token}`, `v=${pct(token)}`, `9${token.replace("_", "%5F")}`]) {
      const out = redactText(text);
      assert.ok(!out.includes(token.slice(4, 30)), `${prefix} material left in ${out}`);
    }
  }
  assert.equal(
    redactText("sort_by_created_at and boat_launch_schedule"),
    "sort_by_created_at and boat_launch_schedule",
    "words that merely end in a prefix are kept",
  );
});

test("secret-named query parameters are redacted whatever their value looks like", () => {
  const out = redactText("/cb?access_token=abc123456&refresh_token=def&client_secret=s3cr3t&code=keep&token=t0k&password=pw");
  for (const v of ["abc123456", "def", "s3cr3t", "t0k", "pw"]) assert.ok(!out.includes(`=${v}`), `${v} left in ${out}`);
  assert.match(out, /code=keep/);
});

test("a key in the User-Agent or any other header is redacted", () => {
  const key = liveKey();
  const out = redactHeaders([
    ["User-Agent", `my-cli/1.0 (${key})`],
    ["X-Forwarded-Query", `k=${pct(key)}`],
  ]);
  assert.ok(!JSON.stringify(out).includes(key.slice(8, 30)), `key left in ${JSON.stringify(out)}`);
  assert.ok(!JSON.stringify(out).includes(pct(key)), `encoded key left in ${JSON.stringify(out)}`);
  assert.match(out["user-agent"], /^my-cli\/1\.0 \(/);
});

test("among many ordinary headers, the one value holding a key (raw or percent-encoded) is redacted and the rest kept", () => {
  const key = liveKey();
  const ordinary: [string, string][] = Array.from({ length: 24 }, (_, i) => [`x-h${i}`, `value ${i} /a%20b`]);
  assert.deepEqual(redactHeaders(ordinary), Object.fromEntries(ordinary), "ordinary values, escapes included, are kept as they are");
  for (const hidden of [key, encodeURIComponent(key).replace(/_/g, "%5F")]) {
    const headers: [string, string][] = [...ordinary.slice(0, 12), ["x-debug", `see ${hidden}`], ...ordinary.slice(12)];
    const out = redactHeaders(headers);
    assert.match(out["x-debug"], /^see sk_live_\[REDACTED\]$/, `not redacted: ${out["x-debug"]}`);
    for (const [name, value] of ordinary) assert.equal(out[name], value);
  }
});

test("a key hidden in one header of many, raw, percent-encoded or \\u-escaped, is redacted", () => {
  const key = testKey();
  for (const written of [key, key.replace(/_/g, "%5F"), key.replace(/_/g, "\\u005f")]) {
    const out = redactHeaders({ accept: "*/*", "x-request-id": "req_1", "x-note": `see ${written}`, "x-last": "1" });
    assert.ok(!JSON.stringify(out).includes(written), `left in ${JSON.stringify(out)}`);
    assert.match(out["x-note"], /sk_test_\[REDACTED\]/);
    assert.equal(out.accept, "*/*");
  }
});
