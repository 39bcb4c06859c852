// Scope strings `resource:action`, with `resource:*` and `*` as wildcards; a key hands out only what it holds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { grants, coversAll, isValidScope } from "@/lib/auth/scopes";

test("an exact scope grants that scope and nothing else", () => {
  assert.equal(grants(["products:read"], "products:read"), true);
  assert.equal(grants(["products:read"], "products:write"), false);
  assert.equal(grants(["products:read"], "prices:read"), false);
  assert.equal(grants([], "products:read"), false);
});

test("resource:* grants every action on that resource only", () => {
  for (const action of ["read", "write", "delete"]) assert.equal(grants(["products:*"], `products:${action}`), true);
  assert.equal(grants(["products:*"], "prices:read"), false);
  // A prefix of another resource's name is not that resource.
  assert.equal(grants(["api:*"], "api_keys:read"), false);
  assert.equal(grants(["api_keys_old:*"], "api_keys:read"), false);
  assert.equal(grants(["products:read", "call:*"], "call:prod_0123456789"), true);
  assert.equal(grants(["call:*"], "callx:prod_0123456789"), false);
});

test("* grants everything", () => {
  assert.equal(grants(["*"], "products:delete"), true);
  assert.equal(grants(["*"], "api_keys:write"), true);
});

test("coversAll returns the first scope the holder lacks, or null when all are held", () => {
  assert.equal(coversAll(["products:*"], ["products:read", "products:write"]), null);
  assert.equal(coversAll(["products:read", "prices:read"], ["prices:read"]), null);
  assert.equal(coversAll(["products:read"], ["products:read", "products:write"]), "products:write");
  assert.equal(coversAll(["products:read"], ["prices:read"]), "prices:read");
  assert.equal(coversAll(["*"], ["*", "prices:*", "products:read"]), null);
  assert.equal(coversAll([], []), null);
});

test("a wildcard can only be handed out by a key holding that wildcard", () => {
  assert.equal(coversAll(["products:read", "products:write", "products:delete"], ["products:*"]), "products:*");
  assert.equal(coversAll(["products:*"], ["products:*"]), null);
  assert.equal(coversAll(["products:*"], ["*"]), "*");
  assert.equal(coversAll(["products:*", "prices:*"], ["*"]), "*");
});

test("isValidScope accepts resource:action, resource:* and *, and nothing else", () => {
  for (const ok of [
    "*",
    "products:read",
    "products:write",
    "products:delete",
    "products:*",
    "api_keys:read",
    "versions:read",
    "executions:*",
  ]) {
    assert.equal(isValidScope(ok), true, ok);
  }
  for (const bad of [
    "",
    "products",
    "products:",
    "products:admin",
    "unknown:read",
    "*:read",
    "products:read:extra",
    "Products:read",
    " products:read",
  ]) {
    assert.equal(isValidScope(bad), false, JSON.stringify(bad));
  }
});
