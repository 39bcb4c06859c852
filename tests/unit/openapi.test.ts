// The OpenAPI document is generated from the route table that serves requests; these tests fail when a route
// goes undocumented or unscoped, or when the router the front door uses cannot reach a route of the table.
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

type Operation = {
  operationId: string;
  parameters: { name: string; in: string }[];
  responses: Record<string, unknown>;
  security?: unknown[];
  "x-required-scope"?: string;
};
const doc = buildOpenApi(ROUTES, "https://api.example.test") as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  servers: { url: string }[];
};

const APP_V1 = path.resolve("app/v1");

// One catch-all route file serves every /v1 path (the route table decides); a second file under app/v1 would take
// paths away from it and answer them some other way.
test("app/v1 holds exactly one route file, the catch-all that hands every path to the route table", () => {
  const files = readdirSync(APP_V1, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith("route.ts"));
  assert.deepEqual(files, [path.join("[[...path]]", "route.ts")]);
  assert.match(readFileSync(path.join(APP_V1, files[0]), "utf8"), /serveWebRequest/);
});

test("every route of the table is reached by the matcher the front door uses", async () => {
  const { RouteMatcher } = await import("@/lib/server/match-route");
  const matcher = new RouteMatcher(ROUTES);
  for (const route of ROUTES) {
    const concrete = route.path.replace(/\{(\w+)\}/g, (_, name: string) => `${name}_x`);
    const m = matcher.match(route.method, concrete);
    assert.ok(m.kind === "route" && m.route === route, `${route.method} ${route.path}`);
  }
});

const PUBLIC_PATHS = new Set(["/v1/openapi.json", "/v1/schemas", "/v1/schemas/{kind}", "/v1/apps/schemas/{type}"]);
// Any valid key, whatever its scopes: the catalogue (a key limited to calling one product may still browse it).
const ANY_KEY_PATHS = new Set(["/v1/catalog/products", "/v1/catalog/products/{id}"]);

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
    if (ANY_KEY_PATHS.has(route.path)) {
      assert.equal(route.scope, undefined, `${route.path} is for any key`);
      assert.ok(op.responses["401"], `${route.method} ${route.path} documents no 401`);
      continue;
    }
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
  assert.deepEqual(
    { min: limit?.schema?.minimum, max: limit?.schema?.maximum, def: limit?.schema?.default },
    { min: 1, max: 100, def: 10 },
  );
  for (const name of ["cursor", "offset", "sort", "fields", "expand", "q", "type", "createdAt", "price"]) {
    assert.ok(
      list.some((x) => x.name === name),
      `GET /v1/products does not document '${name}'`,
    );
  }
});

// Issue 16: the document declares everything the pipeline can send, from the sources the pipeline uses.
type Json = Record<string, any>;
const full = doc as unknown as Json;
const schemas = full.components.schemas as Record<string, Json>;

test("every authenticated operation declares 401, 403 and 429; bodies 413; writes 409; every answer its headers", () => {
  for (const route of ROUTES) {
    const op = (full.paths[route.path] as Json)[route.method.toLowerCase()] as Json;
    const where = `${route.method} ${route.path}`;
    assert.ok(op.description, `${where} has no description`);
    const headers = (status: string) => Object.keys(op.responses[status]?.headers ?? {});
    const success = Object.keys(op.responses).find((s) => s.startsWith("2"))!;
    assert.ok(headers(success).includes("X-Request-Id"), `${where} ${success} does not declare X-Request-Id`);
    if (route.auth === "none") continue;
    for (const status of ["401", "403", "429"]) assert.ok(op.responses[status], `${where} does not declare ${status}`);
    for (const h of ["X-RateLimit-Limit", "RateLimit", "RateLimit-Policy", "X-API-Version"]) {
      assert.ok(headers(success).includes(h), `${where} ${success} does not declare ${h}`);
    }
    assert.ok(headers("429").includes("Retry-After"), `${where} 429 does not declare Retry-After`);
    if (route.body) assert.ok(op.responses["413"], `${where} reads a body but does not declare 413`);
    if (route.method !== "GET") assert.ok(op.responses["409"], `${where} does not declare 409`);
    if (route.method === "POST" && op.responses["201"]) {
      assert.ok(op.responses["200"]?.content, `${where}: a replayed create answers a body the document does not declare`);
      assert.ok(headers("200").includes("Idempotent-Replayed"));
    }
  }
  assert.ok(full.info.contact?.url, "info.contact is missing");
});

test("the Error schema declares every field the error catalog gives a code", async () => {
  const { ERROR_CATALOG } = await import("@/lib/http/error-catalog");
  const error = schemas.Error;
  assert.equal(error.additionalProperties, false);
  const names = ERROR_CATALOG.flatMap((e) => Object.keys(e.fields ?? {}));
  for (const name of ["requiredScope", "currentState", "allowed", "referencedBy", "retryAfter", "declineCode", "migration"]) {
    assert.ok(names.includes(name), `the catalog names no code with '${name}'`);
  }
  for (const name of names) assert.ok(error.properties[name], `Error does not declare '${name}'`);
});

test("a property with a default is optional in a request and present in a response", () => {
  assert.ok(!(schemas.KeyRotationSettingsInput.required ?? []).includes("strategy"));
  assert.ok(schemas.KeyRotationSettings.required.includes("strategy"));
  const agentModel = schemas.AIModelInput;
  assert.ok(!(agentModel.required ?? []).includes("temperature"), "model.temperature is required in requests");
  const rotate = full.paths["/v1/api-keys/{id}/rotate"].post;
  assert.equal(rotate.requestBody.required, false, "rotate declares a body it does not need");
  assert.ok(schemas.RotatedApiKey.properties.rotatedFrom, "rotatedFrom is not declared");
});

test("comma lists and range filters are declared per list", () => {
  const list = full.paths["/v1/products"].get.parameters as Json[];
  const type = list.find((x) => x.name === "type")!;
  assert.deepEqual({ type: type.schema.type, style: type.style, explode: type.explode }, { type: "array", style: "form", explode: false });
  for (const name of ["createdAt[gte]", "createdAt[lt]", "type[ne]"])
    assert.ok(
      list.some((x) => x.name === name),
      name,
    );
  assert.ok(!list.some((x) => x.name === "type[gte]"), "an enum cannot be compared with gte");
  assert.ok(full.paths["/v1/products"].get.responses["200"]["x-partial-schema"], "fields= answers are not described");
});
