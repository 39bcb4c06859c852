// Version resolution: path first, header and query alternatives may repeat it but not contradict it; the
// registry's dates move a version to deprecated (notices) and sunset (410), read against an injected time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "@/lib/http/errors";
import { loadRegistry, effectiveStatus, currentVersion, type VersionRecord } from "@/lib/versions/registry";
import { resolveVersion } from "@/lib/versions/resolve-version";

const BASE = "https://api.example.test";
const AT = new Date("2026-06-01T12:00:00Z");
const DEFAULT = loadRegistry("");

function resolve(
  opts: { path?: string; headers?: Record<string, string>; query?: string; registry?: Map<string, VersionRecord>; at?: Date } = {},
) {
  return resolveVersion(
    {
      pathVersion: opts.path ?? "v1",
      headers: new Headers(opts.headers ?? {}),
      query: new URLSearchParams(opts.query ?? ""),
      baseUrl: BASE,
    },
    opts.registry ?? DEFAULT,
    opts.at ?? AT,
  );
}

function rejects(fn: () => unknown, status: number, code: string): ApiError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected an ApiError, got ${e}`);
    assert.equal(e.status, status, e.message);
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${status} ${code}, but the call succeeded`);
}

const DEPRECATED = JSON.stringify({
  v1: { status: "deprecated", deprecationDate: "2026-01-01", sunsetDate: "2027-01-01", replacement: "v2" },
});

test("a plain /v1 request resolves to v1 as JSON, with no deprecation notice", () => {
  const v = resolve();
  assert.equal(v.version, "v1");
  assert.equal(v.contentType, "application/json");
  assert.equal(v.headers["X-API-Version"], "v1");
  assert.equal(v.headers["Deprecation"], undefined);
  assert.equal(v.headers["Sunset"], undefined);
  assert.equal(v.warning, undefined);
});

test("a vendor Accept type is answered with a Content-Type of the same kind", () => {
  const v = resolve({ headers: { accept: "application/vnd.platform.v1+json" } });
  assert.equal(v.contentType, "application/vnd.platform.v1+json");
});

test("X-API-Version, ?version and ?api-version that repeat the path version are accepted", () => {
  assert.equal(resolve({ headers: { "x-api-version": "v1" } }).version, "v1");
  assert.equal(resolve({ headers: { "x-api-version": "1" } }).version, "v1");
  assert.equal(resolve({ query: "version=v1" }).version, "v1");
  assert.equal(resolve({ query: "api-version=V1" }).version, "v1");
});

test("an alternative that names another version than the path is a 400 naming where it came from", () => {
  for (const [input, field] of [
    [{ headers: { "x-api-version": "v2" } }, "X-API-Version"],
    [{ headers: { accept: "application/vnd.platform.v2+json" } }, "Accept"],
    [{ query: "version=v2" }, "version"],
    [{ query: "api-version=2" }, "api-version"],
  ] as const) {
    const e = rejects(() => resolve(input), 400, "INVALID_PARAMETER");
    assert.equal(e.type, "validation_error");
    assert.equal(e.field, field);
    assert.match(e.message, /v2/);
  }
});

test("a malformed version alternative is a 400", () => {
  for (const input of [{ headers: { "x-api-version": "latest" } }, { query: "api-version=2026-01-01" }, { query: "version=v1.5" }]) {
    const e = rejects(() => resolve(input), 400, "INVALID_PARAMETER");
    assert.equal(e.type, "validation_error");
  }
});

test("a version the registry does not know is a 404", () => {
  const e = rejects(() => resolve({ path: "v9" }), 404, "ROUTE_NOT_FOUND");
  assert.equal(e.type, "not_found_error");
  assert.match(e.message, /v9/);
});

test("a deprecated version before its sunset answers with the deprecation headers and a warning", () => {
  const v = resolve({ registry: loadRegistry(DEPRECATED) });
  assert.equal(v.version, "v1");
  assert.equal(v.headers["Deprecation"], "true");
  assert.equal(v.headers["Sunset"], "Fri, 01 Jan 2027 00:00:00 GMT");
  assert.equal(v.headers["X-API-Sunset"], "2027-01-01T00:00:00.000Z");
  assert.equal(v.headers["X-API-Deprecation"], "2026-01-01T00:00:00.000Z");
  assert.match(v.headers["Link"], /<https:\/\/api\.example\.test\/docs\/migrations\/v1>; rel="deprecation"/);
  assert.match(v.headers["Link"], /<https:\/\/api\.example\.test\/v2>; rel="alternate"/);
  assert.ok(v.warning, "a deprecated version carries meta.warning");
  assert.match(v.warning!, /deprecated/);
  assert.match(v.warning!, /2027-01-01/);
  assert.match(v.warning!, /v2/);
});

test("after the sunset date the version is a 410 version_sunset with migration and currentVersion", () => {
  const e = rejects(() => resolve({ registry: loadRegistry(DEPRECATED), at: new Date("2027-01-02T00:00:00Z") }), 410, "VERSION_SUNSET");
  assert.equal(e.type, "version_sunset");
  assert.equal(e.extra?.migration, `${BASE}/docs/migrations/v1`);
  // The client is sent to the replacement, never back to the version that just refused it.
  assert.equal(e.extra?.currentVersion, "v2");
  assert.doesNotMatch(e.message, /Use v1/);
});

test("sunset takes effect at the sunset instant, not a day later", () => {
  const registry = loadRegistry(DEPRECATED);
  assert.equal(resolve({ registry, at: new Date("2026-12-31T23:59:59Z") }).headers["Deprecation"], "true");
  rejects(() => resolve({ registry, at: new Date("2027-01-01T00:00:00Z") }), 410, "VERSION_SUNSET");
});

test("a sunset version without a named replacement points to the newest stable version", () => {
  const registry = loadRegistry(JSON.stringify({ v1: { sunsetDate: "2026-01-01" }, v2: { status: "stable", releaseDate: "2025-12-01" } }));
  const e = rejects(() => resolve({ registry }), 410, "VERSION_SUNSET");
  assert.equal(e.extra?.currentVersion, "v2");
  assert.equal(resolve({ path: "v2", registry }).headers["Deprecation"], undefined);
});

test("the alternative check runs before the sunset check: v2 asked on a sunset /v1 is still a 400", () => {
  const registry = loadRegistry(DEPRECATED);
  rejects(() => resolve({ registry, at: new Date("2028-01-01"), headers: { "x-api-version": "v2" } }), 400, "INVALID_PARAMETER");
});

test("a stable version whose deprecationDate has passed counts as deprecated", () => {
  const registry = loadRegistry(JSON.stringify({ v1: { status: "stable", deprecationDate: "2026-03-01" } }));
  const record = registry.get("v1")!;
  assert.equal(effectiveStatus(record, new Date("2026-02-28T00:00:00Z")), "stable");
  assert.equal(effectiveStatus(record, new Date("2026-03-01T00:00:00Z")), "deprecated");
  assert.equal(resolve({ registry, at: new Date("2026-02-28T00:00:00Z") }).headers["Deprecation"], undefined);
  const v = resolve({ registry, at: new Date("2026-03-02T00:00:00Z") });
  assert.equal(v.headers["Deprecation"], "true");
  assert.ok(v.warning);
  // No sunset date set: no Sunset header is invented.
  assert.equal(v.headers["Sunset"], undefined);
});

test("the default registry has v1 stable, and currentVersion is v1", () => {
  assert.equal(DEFAULT.get("v1")?.status, "stable");
  assert.equal(effectiveStatus(DEFAULT.get("v1")!, AT), "stable");
  assert.equal(currentVersion(DEFAULT, AT), "v1");
});

test("an invalid API_VERSIONS override is refused at load time", () => {
  assert.throws(() => loadRegistry(JSON.stringify({ v1: { status: "retired" } })), /API_VERSIONS is not valid/);
});
