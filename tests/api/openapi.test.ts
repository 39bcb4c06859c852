// GET /v1/openapi.json: public, served by the real server, and a document Redocly's linter accepts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { request, expectError, BASE_URL } from "../helpers/api";

function lint(file: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      "node_modules/.bin/redocly",
      ["lint", file],
      { timeout: 120_000, env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

test("GET /v1/openapi.json answers without a key with an OpenAPI 3.1 document", async () => {
  const res = await request("GET", "/v1/openapi.json");
  assert.equal(res.status, 200, res.text.slice(0, 500));
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  assert.equal(res.body.openapi, "3.1.0");
  assert.equal(res.body.servers[0].url, BASE_URL);
  for (const p of ["/v1/products", "/v1/products/{id}", "/v1/versions", "/v1/openapi.json"]) {
    assert.ok(res.body.paths[p], `${p} missing from the served document`);
  }
  assert.equal(res.body.paths["/v1/products"].post["x-required-scope"], "products:write");
  assert.ok(res.body.components.securitySchemes.bearerAuth);
});

test("the served document passes redocly lint", async () => {
  const res = await request("GET", "/v1/openapi.json");
  assert.equal(res.status, 200);
  const dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
  const file = path.join(dir, "openapi.json");
  try {
    writeFileSync(file, res.text);
    const { code, output } = await lint(file);
    assert.equal(code, 0, `redocly lint failed:\n${output}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Spectral's `spectral:oas` ruleset (.spectral.yaml), with hints counted: 0 errors, warnings, infos or hints.
test("the served document passes spectral lint (spectral:oas) with no finding at all", async () => {
  const res = await request("GET", "/v1/openapi.json");
  assert.equal(res.status, 200);
  const dir = mkdtempSync(path.join(tmpdir(), "openapi-spectral-"));
  const file = path.join(dir, "openapi.json");
  try {
    writeFileSync(file, res.text);
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        "node_modules/.bin/spectral",
        ["lint", file, "--ruleset", path.resolve(".spectral.yaml"), "--fail-severity=hint", "--format", "text"],
        { timeout: 120_000 },
        (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, output: `${stdout}\n${stderr}` }),
      );
    });
    assert.equal(code, 0, `spectral lint failed:\n${output.slice(0, 4000)}`);
    assert.match(output, /No results/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an invalid key does not stop the public document", async () => {
  const res = await request("GET", "/v1/openapi.json", { key: "sk_test_not-a-real-key" });
  assert.equal(res.status, 200);
  assert.equal(res.body.openapi, "3.1.0");
});

test("POST /v1/openapi.json is a 405 naming the allowed method", async () => {
  const res = await request("POST", "/v1/openapi.json", { body: {} });
  expectError(res, 405, "METHOD_NOT_ALLOWED");
  assert.equal(res.headers.get("allow"), "GET");
});
