// The portal's form errors (lib/portal/form-errors.ts): zod's wording never reaches a user, every field gets a
// sentence of its own, authored messages are kept, and an API error lands on its form field.
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { zodToApiError } from "@/lib/http/zod-errors";
import { ApiKeyCreate } from "@/lib/schemas/api-key";
import { formErrors, humanApiMessage, splitFormErrors, topField } from "@/lib/portal/form-errors";

const ZOD_WORDS = /Too small|Too big|Invalid input|expected|received|>=|<=|at path/;

test("each field of a zod error gets a plain sentence, without zod's words", () => {
  const schema = z.object({
    name: z.string().trim().min(1),
    days: z.number().int().min(1).max(10),
    email: z.email(),
    scopes: z.array(z.string()).min(1),
    kind: z.enum(["test", "live"]),
    url: z.url(),
    short: z.string().max(3),
    missing: z.string(),
  });
  const r = schema.safeParse({ name: "  ", days: 1.5, email: "nope", scopes: [], kind: "x", url: "nope", short: "abcdef" });
  assert.equal(r.success, false);
  const errors = formErrors(r.error);
  assert.deepEqual(errors, {
    name: "This field is required.",
    days: "Enter a whole number.",
    email: "Enter a valid e-mail address.",
    scopes: "Choose at least one.",
    kind: "Choose one of: test, live.",
    url: "Enter a full URL, such as https://example.com/hooks.",
    short: "Use at most 3 characters.",
    missing: "This field is required.",
  });
  for (const m of Object.values(errors)) assert.doesNotMatch(m, ZOD_WORDS);
});

test("numbers out of range are said in words", () => {
  const r = z.object({ n: z.number().min(1).max(5) }).safeParse({ n: -5 });
  assert.deepEqual(formErrors(r.error), { n: "Enter a number of at least 1." });
  const big = z.object({ n: z.number().max(5) }).safeParse({ n: 9 });
  assert.deepEqual(formErrors(big.error), { n: "Enter a number no greater than 5." });
  const nan = z.object({ n: z.coerce.number() }).safeParse({ n: "abc" });
  assert.deepEqual(formErrors(nan.error), { n: "Enter a number." });
});

test("a message the schema's author wrote is kept, as a sentence", () => {
  const r = z
    .object({ a: z.string().min(8, "Use at least 8 characters."), b: z.string().refine(() => false, "must be a host") })
    .safeParse({
      a: "x",
      b: "y",
    });
  assert.deepEqual(formErrors(r.error), { a: "Use at least 8 characters.", b: "Must be a host." });
});

test("key expiry: 0, negative and fractional days are refused in words", () => {
  for (const [days, words] of [
    [0, /at least 1 day/],
    [-5, /at least 1 day/],
    [1.5, /whole number of days/],
  ] as const) {
    const r = ApiKeyCreate.safeParse({ name: "k", expiresInDays: days });
    assert.equal(r.success, false, `${days} must be refused`);
    const errors = formErrors(r.error);
    assert.match(errors.expiresInDays, words);
    assert.doesNotMatch(errors.expiresInDays, ZOD_WORDS);
  }
});

test("an API error goes to its form field, with zod's quoted wording replaced", () => {
  const fromZod = zodToApiError(z.object({ name: z.string().min(1) }).safeParse({ name: "" }).error!, "body");
  assert.match(fromZod.message, /Too small/); // what the API says …
  assert.deepEqual(formErrors(fromZod), { name: "This field is required." }); // … and what the form shows
  const nested = new ApiError({
    status: 400,
    type: "validation_error",
    code: "INVALID_FIELD",
    field: "redirectUris[0]",
    message: "Use https.",
  });
  assert.deepEqual(formErrors(nested), { redirectUris: "Use https." });
  const general = new ApiError({ status: 409, type: "conflict_error", code: "ALREADY_EXISTS", message: "Already there." });
  assert.deepEqual(formErrors(general), { form: "Already there." });
  assert.equal(humanApiMessage("Invalid field 'retentionDays': Too small: expected number to be >=1"), "Enter a number of at least 1.");
  assert.equal(humanApiMessage("Invalid field 'name': Too big: expected string to have <=100 characters"), "Use at most 100 characters.");
  assert.deepEqual(formErrors({ message: "x", fields: { a: "A.", b: "B." } }), { a: "A.", b: "B." });
  assert.deepEqual(formErrors(null), {});
});

test("fields a form does not show are not lost: they become the form's message", () => {
  assert.deepEqual(splitFormErrors({ name: "N.", projectId: "P.", form: "F." }, ["name"]), { fields: { name: "N." }, form: "P. F." });
  assert.deepEqual(splitFormErrors({}, ["name"]), { fields: {}, form: null });
  assert.equal(topField("steps[2].config.url"), "steps");
  assert.equal(topField(["a", 0, "b"]), "a");
  assert.equal(topField(undefined), "form");
});
