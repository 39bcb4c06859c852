// Validation and error mapping: zod issues become the spec's validation errors, and anything thrown becomes one
// ApiError (Prisma's known codes included; unknown errors a generic 500 that leaks nothing).
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { zodToApiError, formatPath } from "@/lib/http/zod-errors";
import { toApiError, errorBody } from "@/lib/http/error-mapper";
import { ProductCreate } from "@/lib/schemas/product";

function mapped(schema: z.ZodType, input: unknown, location: "body" | "query" | "params" = "body"): ApiError {
  const result = schema.safeParse(input);
  assert.equal(result.success, false, "the input was expected to fail validation");
  const e = zodToApiError(result.error!, location);
  assert.equal(e.status, 400);
  assert.equal(e.type, "validation_error");
  return e;
}

const Workflow = z.strictObject({
  name: z.string(),
  steps: z.array(z.strictObject({ config: z.strictObject({ url: z.url() }) })),
});

test("an absent required field is MISSING_REQUIRED_FIELD naming it", () => {
  const e = mapped(ProductCreate, { type: "API" });
  assert.equal(e.code, "MISSING_REQUIRED_FIELD");
  assert.equal(e.field, "name");
  assert.match(e.message, /'name' is required/);
});

test("a present field of the wrong type is INVALID_FIELD, not 'required'", () => {
  const e = mapped(ProductCreate, { name: 123, type: "API" });
  assert.equal(e.code, "INVALID_FIELD");
  assert.equal(e.field, "name");
  assert.doesNotMatch(e.message, /required/);
  const nested = mapped(ProductCreate, { name: "x", type: "API", interfaces: { hasAPI: "yes" } });
  assert.equal(nested.code, "INVALID_FIELD");
  assert.equal(nested.field, "interfaces.hasAPI");
  // null is a value, not an absence.
  assert.equal(mapped(ProductCreate, { name: null, type: "API" }).code, "INVALID_FIELD");
});

test("parsed as the pipeline parses (reportInput), an absent enum field is missing, not an invalid type", () => {
  const result = ProductCreate.safeParse({ name: "Weather" }, { reportInput: true });
  assert.equal(result.success, false);
  const e = zodToApiError(result.error!, "body");
  assert.equal(e.code, "MISSING_REQUIRED_FIELD");
  assert.equal(e.field, "type");
  const wrong = zodToApiError(ProductCreate.safeParse({ name: 5, type: "API" }, { reportInput: true }).error!, "body");
  assert.equal(wrong.code, "INVALID_FIELD");
  assert.equal(wrong.field, "name");
  // The input is read, never repeated back.
  const secret = zodToApiError(ProductCreate.safeParse({ name: "x", type: "sk_live_leak" }, { reportInput: true }).error!, "body");
  assert.doesNotMatch(`${secret.message} ${secret.suggestion}`, /sk_live_leak/);
});

test("a value outside the enum of a field named type is INVALID_TYPE with the allowed values", () => {
  const e = mapped(ProductCreate, { name: "Weather", type: "Widget" });
  assert.equal(e.code, "INVALID_TYPE");
  assert.equal(e.field, "type");
  assert.equal(e.suggestion, "Use one of: SaaS, API, Data, Headless.");
});

test("an enum on another field is INVALID_FIELD, still with the allowed values", () => {
  const e = mapped(z.object({ period: z.enum(["day", "week", "month"]) }), { period: "year" });
  assert.equal(e.code, "INVALID_FIELD");
  assert.equal(e.field, "period");
  assert.equal(e.suggestion, "Use one of: day, week, month.");
});

test("an unknown body key is INVALID_FIELD naming it, at any depth", () => {
  const e = mapped(ProductCreate, { name: "x", type: "API", colour: "red" });
  assert.equal(e.code, "INVALID_FIELD");
  assert.equal(e.field, "colour");
  assert.match(e.message, /colour/);
  const deep = mapped(Workflow, { name: "w", steps: [{ config: { url: "https://a.test", retries: 3 } }] });
  assert.equal(deep.field, "steps[0].config.retries");
});

test("nested paths read as a person writes them: steps[2].config.url", () => {
  const input = {
    name: "w",
    steps: [{ config: { url: "https://a.test" } }, { config: { url: "https://b.test" } }, { config: { url: "not a url" } }],
  };
  const e = mapped(Workflow, input);
  assert.equal(e.code, "INVALID_FIELD");
  assert.equal(e.field, "steps[2].config.url");
  assert.match(e.message, /steps\[2\]\.config\.url/);
  assert.equal(formatPath(["steps", 2, "config", "url"]), "steps[2].config.url");
  assert.equal(formatPath([0, "name"]), "[0].name");
  assert.equal(formatPath([]), "");
  const missing = mapped(Workflow, { name: "w", steps: [{ config: {} }] });
  assert.equal(missing.code, "MISSING_REQUIRED_FIELD");
  assert.equal(missing.field, "steps[0].config.url");
});

test("query and path problems are INVALID_PARAMETER", () => {
  const Query = z.strictObject({ period: z.enum(["day", "week", "month"]).optional() });
  const bad = mapped(Query, { period: "year" }, "query");
  assert.equal(bad.code, "INVALID_PARAMETER");
  assert.equal(bad.field, "period");
  assert.match(bad.message, /parameter/);
  const unknown = mapped(Query, { colour: "red" }, "query");
  assert.equal(unknown.code, "INVALID_PARAMETER");
  assert.equal(unknown.field, "colour");
  const required = mapped(z.object({ id: z.string() }), {}, "params");
  assert.equal(required.code, "INVALID_PARAMETER");
  assert.equal(required.field, "id");
  // A query parameter named type is a parameter, not a product type.
  assert.equal(mapped(z.object({ type: z.enum(["a", "b"]) }), { type: "c" }, "query").code, "INVALID_PARAMETER");
});

test("a schema's own rule may declare its code through params.code", () => {
  const Price = z.object({ type: z.enum(["one_time", "recurring"]), interval: z.string().optional() }).superRefine((v, ctx) => {
    if (v.type === "recurring" && !v.interval) {
      ctx.addIssue({
        code: "custom",
        path: ["interval"],
        message: "interval is required for recurring prices",
        params: { code: "MISSING_REQUIRED_FIELD" },
      });
    }
  });
  const e = mapped(Price, { type: "recurring" });
  assert.equal(e.code, "MISSING_REQUIRED_FIELD");
  assert.equal(e.field, "interval");
  assert.equal(e.message, "interval is required for recurring prices");
  // A custom issue without a declared code falls back to the location's family.
  const plain = mapped(
    z.string().refine((s) => s.startsWith("https://"), "must be https"),
    "http://x",
  );
  assert.equal(plain.code, "INVALID_FIELD");
  assert.equal(plain.field, undefined);
});

test("an ApiError passes through the mapper unchanged", () => {
  const original = new ApiError({ status: 409, type: "conflict_error", code: "STATE_CONFLICT", message: "nope" });
  assert.equal(toApiError(original, "req_1"), original);
});

test("a ZodError thrown by domain code maps as a body validation error", () => {
  const result = ProductCreate.safeParse({ type: "API" });
  const e = toApiError(result.error, "req_1");
  assert.equal(e.status, 400);
  assert.equal(e.code, "MISSING_REQUIRED_FIELD");
  assert.equal(e.field, "name");
});

test("Prisma's unique violation (P2002) is 409 ALREADY_EXISTS; a missing record (P2025) is 404", () => {
  const unique = Object.assign(new Error("Unique constraint failed on the fields: (`keyHash`)"), { code: "P2002" });
  const e = toApiError(unique, "req_1");
  assert.equal(e.status, 409);
  assert.equal(e.type, "conflict_error");
  assert.equal(e.code, "ALREADY_EXISTS");
  assert.doesNotMatch(e.message, /keyHash|constraint/);
  const gone = toApiError(Object.assign(new Error("Record to update not found."), { code: "P2025" }), "req_1");
  assert.equal(gone.status, 404);
  assert.equal(gone.code, "RESOURCE_NOT_FOUND");
});

test("an unknown error is a 500 INTERNAL_ERROR quoting the request id and nothing of the original", (t) => {
  t.mock.method(console, "error", () => {}); // the mapper logs the original; keep the test output clean
  const secret = "connect ECONNREFUSED postgres://admin:hunter2@db:5432 SELECT * FROM api_keys";
  const e = toApiError(new Error(secret), "req_01JTEST");
  assert.equal(e.status, 500);
  assert.equal(e.type, "server_error");
  assert.equal(e.code, "INTERNAL_ERROR");
  assert.match(e.message, /req_01JTEST/);
  assert.doesNotMatch(e.message, /hunter2|postgres|SELECT|ECONNREFUSED/);
  const body = JSON.stringify(errorBody(e, "req_01JTEST", "https://api.example.test"));
  assert.doesNotMatch(body, /hunter2|stack|at Object/);
  // A non-Error throw and a look-alike code that is not Prisma's are unknown errors too.
  assert.equal(toApiError("boom", "req_2").code, "INTERNAL_ERROR");
  assert.equal(toApiError(Object.assign(new Error("x"), { code: "ECONNRESET" }), "req_3").code, "INTERNAL_ERROR");
});

test("the error body carries type, code, message, field, documentation and extra members", () => {
  const e = new ApiError({
    status: 410,
    type: "version_sunset",
    code: "VERSION_SUNSET",
    message: "gone",
    field: "version",
    extra: { migration: "https://x/docs", currentVersion: "v2" },
  });
  const body = errorBody(e, "req_9", "https://api.example.test");
  assert.equal(body.error.type, "version_sunset");
  assert.equal(body.error.code, "VERSION_SUNSET");
  assert.equal(body.error.field, "version");
  assert.equal(body.error.documentation, "https://api.example.test/docs/errors#VERSION_SUNSET");
  assert.equal((body.error as Record<string, unknown>).migration, "https://x/docs");
  assert.equal((body.error as Record<string, unknown>).currentVersion, "v2");
  assert.equal(body.meta.requestId, "req_9");
  assert.ok(!("suggestion" in body.error));
});
