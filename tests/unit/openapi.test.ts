// The OpenAPI document is generated from the route table that serves requests; these tests fail when a route
// file under app/v1 has no table entry (or the other way round), or a route goes undocumented or unscoped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isValidScope } from "@/lib/auth/scopes";

// The route table pulls in the database client; point it at a throwaway file, never the developer's database.
process.env.DATABASE_URL ??= `file:${path.join(mkdtempSync(path.join(tmpdir(), "openapi-unit-")), "unit.db")}`;
const { ROUTES } = await import("@/lib/server/route-table");
const { buildOpenApi } = await import("@/lib/server/openapi");

type Operation = { operationId: string; parameters: { name: string; in: string }[]; responses: Record<string, unknown>; security?: unknown[]; "x-required-scope"?: string };
const doc = buildOpenApi(ROUTES, "https://api.example.test") as { openapi: string; paths: Record<string, Record<string, Operation>>; servers: { url: string }[] };

const APP_V1 = path.resolve("app/v1");

/** Route files under app/v1 as OpenAPI paths: app/v1/products/[id]/route.ts → /v1/products/{id}. */
function routeFiles(): { file: string; path: string }[] {
  return readdirSync(APP_V1, { recursive: true })
    .map(String)
    .filter((f) => path.basename(f) === "route.ts")
    .filter((f) => f !== "route.ts" && !f.split(path.sep).some((seg) => seg.startsWith("[...")))
    .map((f) => ({
      file: f,
      path: "/v1/" + path.dirname(f).split(path.sep).map((seg) => seg.replace(/^\[(\w+)\]$/, "{$1}")).join("/"),
    }));
}

test("the document is OpenAPI 3.1.0 with the server it was built for", () => {
  assert.equal(doc.openapi, "3.1.0");
  assert.equal(doc.servers[0].url, "https://api.example.test");
});

test("every route of the route table appears under its path and method", () => {
  assert.ok(ROUTES.length > 0);
  for (const route of ROUTES) {
    const op = doc.paths[route.path]?.[route.method.toLowerCase()];
    assert.ok(op, `${route.method} ${route.path} is missing from the OpenAPI document`);
    assert.equal((op as { summary?: string }).summary, route.summary);
  }
  const documented = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
  assert.equal(documented, ROUTES.length, "the document holds an operation no route serves");
});

test("the route-file scan finds the routes that exist", () => {
  const paths = routeFiles().map((r) => r.path);
  assert.ok(paths.includes("/v1/products"), `scan found: ${paths.join(", ")}`);
  assert.ok(paths.includes("/v1/products/{id}/activate"));
  assert.ok(paths.includes("/v1/openapi.json"));
  assert.ok(!paths.some((p) => p.includes("...")));
});

test("every route file under app/v1 is documented in the OpenAPI document", () => {
  const missing = routeFiles().filter((r) => !doc.paths[r.path]).map((r) => `${r.path} (app/v1/${r.file})`);
  assert.deepEqual(missing, [], `route files without a route-table entry: ${missing.join(", ")}`);
});

test("every route file serves the path of its own folder", () => {
  for (const r of routeFiles()) {
    const source = readFileSync(path.join(APP_V1, r.file), "utf8");
    const served = /serve\("([^"]+)"\)/.exec(source)?.[1];
    assert.equal(served, r.path, `app/v1/${r.file} serves ${served}`);
  }
});

test("every path of the route table has a route file (else it would answer 404)", () => {
  const files = new Set(routeFiles().map((r) => r.path));
  const orphans = [...new Set(ROUTES.map((r) => r.path))].filter((p) => !files.has(p));
  assert.deepEqual(orphans, [], `route-table paths without a route file: ${orphans.join(", ")}`);
});

// Documentation is public: the OpenAPI document and the automation resources' JSON Schemas. Nothing else is.
const PUBLIC_PATHS = new Set(["/v1/openapi.json", "/v1/schemas", "/v1/schemas/{kind}"]);

test("every route but the public documentation requires a valid scope, and the document says which", () => {
  for (const route of ROUTES) {
    const op = doc.paths[route.path][route.method.toLowerCase()];
    if (PUBLIC_PATHS.has(route.path)) {
      assert.equal(route.method, "GET", `${route.path} is public, so it must only read`);
      assert.equal(route.auth, "none");
      assert.deepEqual(op.security, []);
      continue;
    }
    assert.notEqual(route.auth, "none", `${route.method} ${route.path} is public`);
    assert.ok(route.scope && isValidScope(route.scope), `${route.method} ${route.path} has scope ${route.scope}`);
    assert.equal(op["x-required-scope"], route.scope);
    assert.ok(op.responses["401"] && op.responses["403"], `${route.method} ${route.path} documents no 401/403`);
  }
});

test("each path parameter is declared, and operation ids are unique", () => {
  const ids = new Set<string>();
  for (const [p, ops] of Object.entries(doc.paths)) {
    const names = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(ops)) {
      const declared = op.parameters.filter((x) => x.in === "path").map((x) => x.name);
      assert.deepEqual(declared.sort(), names.sort(), `${method.toUpperCase()} ${p}`);
      assert.ok(!ids.has(op.operationId), `duplicate operationId ${op.operationId}`);
      ids.add(op.operationId);
    }
  }
});

test("collection routes document limit 1..100 (default 10) and their filters", () => {
  const list = doc.paths["/v1/products"].get.parameters as { name: string; schema?: Record<string, unknown> }[];
  const limit = list.find((x) => x.name === "limit");
  assert.deepEqual({ min: limit?.schema?.minimum, max: limit?.schema?.maximum, def: limit?.schema?.default }, { min: 1, max: 100, def: 10 });
  for (const name of ["cursor", "offset", "sort", "fields", "expand", "q", "type", "createdAt", "price"]) {
    assert.ok(list.some((x) => x.name === name), `GET /v1/products does not document '${name}'`);
  }
});
