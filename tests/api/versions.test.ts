// Versioning against the real server: GET /v1/versions, header/query versions that contradict the path, and
// (on servers of their own, configured through API_VERSIONS) a deprecated v1 and a sunset v1.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, request, client, expectError } from "../helpers/api";
import { startServer, type TestServer } from "../helpers/server";

const serverEnv = (versions: unknown): Record<string, string> => ({
  API_VERSIONS: JSON.stringify(versions),
  DATABASE_URL: process.env.DATABASE_URL!,
  KEY_HASH_SECRET: process.env.KEY_HASH_SECRET!,
});

const DEPRECATED = { v1: { status: "deprecated", deprecationDate: "2026-01-01", sunsetDate: "2099-01-01", replacement: "v2" } };
const SUNSET = { v1: { status: "deprecated", deprecationDate: "2019-06-01", sunsetDate: "2020-01-01", replacement: "v2" } };

let deprecatedServer: TestServer | undefined;
let sunsetServer: TestServer | undefined;
let key: string;

before(async () => {
  const biz = await seedBusiness("pro");
  key = biz.testKey;
  // allSettled: a server that did start is still stopped in after() when the other one failed.
  const [d, s] = await Promise.allSettled([startServer(serverEnv(DEPRECATED)), startServer(serverEnv(SUNSET))]);
  if (d.status === "fulfilled") deprecatedServer = d.value;
  if (s.status === "fulfilled") sunsetServer = s.value;
  if (d.status === "rejected") throw d.reason;
  if (s.status === "rejected") throw s.reason;
});

after(async () => {
  await Promise.all([deprecatedServer?.stop(), sunsetServer?.stop()]);
});

test("GET /v1/versions lists v1 as stable with its lifecycle", async () => {
  const res = await client(key).get("/v1/versions");
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get("x-api-version"), "v1");
  assert.equal(res.headers.get("deprecation"), null);
  assert.equal(res.body.meta.warning, undefined);
  const v1 = res.body.data.find((v: { version: string }) => v.version === "v1");
  assert.ok(v1, `v1 missing from ${res.text}`);
  assert.equal(v1.status, "stable");
  assert.equal(v1.effectiveStatus, "stable");
  assert.match(v1.releaseDate, /^\d{4}-\d{2}-\d{2}/);
  assert.ok(Array.isArray(v1.changelog) && v1.changelog.length > 0);
  assert.equal(v1.lifecycle.stable.releaseDate, v1.releaseDate);
  assert.equal(v1.lifecycle.beta.releaseDate, v1.releaseDate);
  assert.equal(v1.lifecycle.deprecated, null);
  assert.equal(res.body.pagination.total, res.body.data.length);
});

test("GET /v1/versions needs a key", async () => {
  expectError(await request("GET", "/v1/versions"), 401, "INVALID_API_KEY");
});

test("a version header or query that contradicts /v1 is a 400 naming it", async () => {
  const api = client(key);
  const header = expectError(await api.get("/v1/products", { "X-API-Version": "v2" }), 400, "INVALID_PARAMETER");
  assert.equal(header.type, "validation_error");
  assert.equal(header.field, "X-API-Version");
  assert.match(header.message, /v2/);
  const accept = expectError(await api.get("/v1/products", { Accept: "application/vnd.platform.v2+json" }), 400, "INVALID_PARAMETER");
  assert.equal(accept.field, "Accept");
  const query = expectError(await api.get("/v1/products?api-version=v2"), 400, "INVALID_PARAMETER");
  assert.equal(query.field, "api-version");
});

test("a version header or query that repeats /v1 is accepted", async () => {
  const api = client(key);
  assert.equal((await api.get("/v1/products", { "X-API-Version": "v1" })).status, 200);
  assert.equal((await api.get("/v1/products?version=v1")).status, 200);
});

test("a vendor Accept type is answered with a Content-Type of the same kind", async () => {
  const res = await client(key).get("/v1/products", { Accept: "application/vnd.platform.v1+json" });
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get("content-type") ?? "", /^application\/vnd\.platform\.v1\+json/);
  assert.ok(Array.isArray(res.body.data));
  const plain = await client(key).get("/v1/products");
  assert.match(plain.headers.get("content-type") ?? "", /^application\/json/);
});

test("a deprecated v1 sends Deprecation, Sunset, Link and X-API-* headers and meta.warning", async () => {
  assert.ok(deprecatedServer, "the deprecated-v1 server did not start");
  const res = await client(key, deprecatedServer.url).get("/v1/products");
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get("deprecation"), "true");
  assert.equal(res.headers.get("sunset"), "Thu, 01 Jan 2099 00:00:00 GMT");
  assert.equal(res.headers.get("x-api-sunset"), "2099-01-01T00:00:00.000Z");
  assert.equal(res.headers.get("x-api-deprecation"), "2026-01-01T00:00:00.000Z");
  const link = res.headers.get("link") ?? "";
  assert.match(link, /<[^>]+\/docs\/migrations\/v1>; rel="deprecation"/);
  assert.match(link, /<[^>]+\/v2>; rel="alternate"/);
  assert.match(res.body.meta.warning ?? "", /deprecated/);
  assert.match(res.body.meta.warning, /2099-01-01/);
  assert.match(res.body.meta.warning, /v2/);
});

test("a deprecated v1 also warns on error responses", async () => {
  assert.ok(deprecatedServer, "the deprecated-v1 server did not start");
  const res = await request("GET", "/v1/products", { base: deprecatedServer.url });
  expectError(res, 401, "INVALID_API_KEY");
  assert.equal(res.headers.get("deprecation"), "true");
  assert.match(res.body.meta.warning ?? "", /deprecated/);
});

test("GET /v1/versions on the deprecated server shows the deprecated lifecycle", async () => {
  assert.ok(deprecatedServer, "the deprecated-v1 server did not start");
  const res = await client(key, deprecatedServer.url).get("/v1/versions");
  assert.equal(res.status, 200, res.text);
  const v1 = res.body.data.find((v: { version: string }) => v.version === "v1");
  assert.equal(v1.status, "deprecated");
  assert.equal(v1.effectiveStatus, "deprecated");
  assert.equal(v1.sunsetDate, "2099-01-01");
  assert.deepEqual(
    {
      announcedDate: v1.lifecycle.deprecated.announcedDate,
      sunsetDate: v1.lifecycle.deprecated.sunsetDate,
      replacement: v1.lifecycle.deprecated.replacement,
    },
    { announcedDate: "2026-01-01", sunsetDate: "2099-01-01", replacement: "v2" },
  );
  assert.ok(v1.lifecycle.deprecated.migrationGuide);
});

test("after its sunset date v1 answers 410 version_sunset with migration and currentVersion", async () => {
  assert.ok(sunsetServer, "the sunset-v1 server did not start");
  const res = await client(key, sunsetServer.url).get("/v1/products");
  const error = expectError(res, 410, "VERSION_SUNSET");
  assert.equal(error.type, "version_sunset");
  assert.match(String(error.migration), /^http:\/\/127\.0\.0\.1:\d+\/docs\/migrations\/v1$/);
  assert.equal(error.currentVersion, "v2");
  assert.match(error.message, /v1/);
  assert.match(error.message, /2020-01-01/);
});

test("a sunset version is refused before anything else, with or without a key and on every route", async () => {
  assert.ok(sunsetServer, "the sunset-v1 server did not start");
  expectError(await request("GET", "/v1/products", { base: sunsetServer.url }), 410, "VERSION_SUNSET");
  expectError(
    await request("POST", "/v1/products", { base: sunsetServer.url, key, body: { name: "Late", type: "API" } }),
    410,
    "VERSION_SUNSET",
  );
  expectError(await request("GET", "/v1/versions", { base: sunsetServer.url, key }), 410, "VERSION_SUNSET");
});
