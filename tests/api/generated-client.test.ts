// A client generated from the served OpenAPI document (openapi-typescript types + openapi-fetch) compiles against
// the examples of docs/typed-clients.md and runs them against the started server: create, list with filters and a cursor,
// update, delete, rotate a key, and the automation resources. If the document lies (a default marked required,
// a comma list or range filter not declared, a body the server does not need), the script fails to type-check;
// if a response does not match, openapi-fetch's typed result and the assertions in the script disagree.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { request, seedBusiness, BASE_URL } from "../helpers/api";

// Under node_modules so the script resolves openapi-fetch, and the project's own `tsc` never sees it.
const WORK_ROOT = path.resolve("node_modules/.cache/generated-client");

function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 180_000, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, output: `${stdout}\n${stderr}` });
    });
  });
}

// The README's examples through the generated client. Every call is typed by the document: a field the document
// does not declare, or a required one the README leaves out, is a compile error.
const SCRIPT = `
import createClient from "openapi-fetch";
import type { paths } from "./schema";

const fail = (what: string, r: { error?: unknown; response: Response }): never => {
  throw new Error(what + ": " + r.response.status + " " + JSON.stringify(r.error));
};

async function main() {
  const api = createClient<paths>({
    baseUrl: process.env.BASE_URL!,
    headers: { Authorization: "Bearer " + process.env.KEY },
    // type=API,SaaS: the document declares comma lists (form style, not exploded).
    querySerializer: { array: { style: "form", explode: false } },
  });
  const out: Record<string, unknown> = {};

  const created = await api.POST("/v1/products", {
    body: { name: "Weather API", type: "API", description: "Forecasts" },
    params: { header: { "Idempotency-Key": "readme-" + Date.now() } },
  });
  if (!created.data) return fail("create product", created);
  const product = created.data.data;
  out.created = { id: product.id, name: product.name, type: product.type };
  await api.POST("/v1/products", { body: { name: "Second", type: "SaaS" } });
  await api.POST("/v1/products", { body: { name: "Third", type: "Data" } });

  const page1 = await api.GET("/v1/products", {
    params: { query: { type: ["API", "SaaS"], sort: "-createdAt", limit: 1, "createdAt[gte]": "2000-01-01T00:00:00Z" } },
  });
  if (!page1.data) return fail("list products", page1);
  const cursor = page1.data.pagination.nextCursor;
  const page2 = cursor ? await api.GET("/v1/products", { params: { query: { type: ["API", "SaaS"], sort: "-createdAt", limit: 1, cursor } } }) : null;
  if (page2 && !page2.data) return fail("list products, page 2", page2);
  out.listed = [...page1.data.data, ...(page2?.data?.data ?? [])].map((p) => p.type).sort();
  out.hasMore = page1.data.pagination.hasMore;

  const partial = await api.GET("/v1/products", { params: { query: { fields: "name,type", limit: 5 } } });
  if (!partial.data) return fail("list with fields", partial);
  out.partialKeys = Object.keys(partial.data.data[0]).sort();

  const updated = await api.PATCH("/v1/products/{id}", { params: { path: { id: product.id } }, body: { description: "Hourly forecasts" } });
  if (!updated.data) return fail("update product", updated);
  out.updated = updated.data.data.description;

  const deleted = await api.DELETE("/v1/products/{id}", { params: { path: { id: product.id } } });
  out.deletedStatus = deleted.response.status;

  // rotation settings: strategy has a default, so it may be left out.
  const key = await api.POST("/v1/api-keys", { body: { name: "CI reader", scopes: ["products:read"], rotation: { maxAge: 90 } } });
  if (!key.data) return fail("create key", key);
  // rotate needs no body.
  const rotated = await api.POST("/v1/api-keys/{id}/rotate", { params: { path: { id: key.data.data.id } } });
  if (!rotated.data) return fail("rotate key", rotated);
  out.rotatedFrom = rotated.data.data.rotatedFrom?.id === key.data.data.id;

  // Automation resources: model.temperature, a workflow's retry and the like have defaults and may be left out.
  const agent = await api.POST("/v1/agents", {
    body: { name: "Researcher", role: "Finds sources", systemPrompt: "You are careful.", model: { provider: "anthropic", model: "claude-sonnet" } },
  });
  if (!agent.data) return fail("create agent", agent);
  out.agentTemperature = agent.data.data.model.temperature;
  const workflow = await api.POST("/v1/workflows", {
    body: { name: "Onboarding", description: "Welcomes a customer", steps: [{ id: "greet", name: "Greet", type: "agent", config: {} }] },
  });
  if (!workflow.data) return fail("create workflow", workflow);
  out.workflowRetry = workflow.data.data.retry?.maxAttempts;
  const agents = await api.GET("/v1/agents", { params: { query: { limit: 10 } } });
  if (!agents.data) return fail("list agents", agents);
  out.agents = agents.data.data.length;
  const removed = await api.DELETE("/v1/workflows/{id}", { params: { path: { id: workflow.data.data.id } } });
  out.workflowDeleted = removed.response.status;

  console.log(JSON.stringify(out));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
`;

test("a client generated with openapi-typescript compiles against the README's examples and runs them", async () => {
  const doc = await request("GET", "/v1/openapi.json");
  assert.equal(doc.status, 200);
  mkdirSync(WORK_ROOT, { recursive: true });
  const dir = mkdtempSync(path.join(WORK_ROOT, "run-"));
  try {
    const types = astToString(await openapiTS(doc.body));
    writeFileSync(path.join(dir, "schema.d.ts"), types);
    writeFileSync(path.join(dir, "readme-examples.ts"), SCRIPT);
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "ESNext",
          moduleResolution: "Bundler",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ["node"],
          typeRoots: [path.resolve("node_modules/@types")],
        },
        files: ["readme-examples.ts"],
      }),
    );
    const tsc = await run(path.resolve("node_modules/.bin/tsc"), ["-p", dir]);
    assert.equal(tsc.code, 0, `the generated client does not compile against the README's examples:\n${tsc.output.slice(0, 4000)}`);

    const biz = await seedBusiness();
    const ran = await run(path.resolve("node_modules/.bin/tsx"), [path.join(dir, "readme-examples.ts")], { BASE_URL, KEY: biz.testKey });
    assert.equal(ran.code, 0, `the generated client failed against the server:\n${ran.output.slice(0, 4000)}`);
    const out = JSON.parse(ran.output.trim().split("\n").filter(Boolean).at(-1)!);
    assert.deepEqual(out.created, { id: out.created.id, name: "Weather API", type: "API" });
    assert.deepEqual(out.listed, ["API", "SaaS"], "type=API,SaaS with a cursor walks both matching products");
    assert.equal(out.hasMore, true);
    assert.deepEqual(out.partialKeys, ["id", "name", "type"]);
    assert.equal(out.updated, "Hourly forecasts");
    assert.equal(out.deletedStatus, 204);
    assert.equal(out.rotatedFrom, true);
    assert.equal(out.agentTemperature, 0.7);
    assert.equal(out.workflowRetry, 3);
    assert.equal(out.agents, 1);
    assert.equal(out.workflowDeleted, 204);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
