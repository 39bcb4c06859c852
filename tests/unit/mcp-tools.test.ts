// MCP tools from an OpenAPI document (lib/mcp/openapi-tools.ts), their arguments as HTTP requests
// (lib/mcp/tool-request.ts) and their results (lib/mcp/tool-result.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { sanitizeToolName, toolsFromDocument } from "@/lib/mcp/openapi-tools";
import { pathSegment, toolRequest, ToolArgumentError } from "@/lib/mcp/tool-request";
import { refusalResult, toolResult, MAX_TEXT } from "@/lib/mcp/tool-result";
import { ApiError } from "@/lib/http/errors";

const doc = {
  openapi: "3.0.3",
  paths: {
    "/items/{id}": {
      parameters: [{ $ref: "#/components/parameters/Id" }],
      get: {
        operationId: "get item!",
        summary: "One item",
        description: "By its id.",
        tags: ["items"],
        parameters: [{ name: "id", in: "query", schema: { type: "integer" } }],
        responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } } } },
      },
      put: {
        operationId: "putItem",
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } } },
        responses: {},
      },
      delete: { operationId: "deleteItem", responses: { "204": { description: "" } } },
    },
    "/lists": {
      get: { tags: ["lists"], responses: { "200": { content: { "application/json": { schema: { type: "array", items: {} } } } } } },
      post: { operationId: "x".repeat(80), tags: ["lists"], responses: {} },
    },
  },
  components: {
    parameters: { Id: { name: "id", in: "path", required: true, schema: { type: "string" } } },
    schemas: {
      Item: {
        type: "object",
        properties: { name: { type: "string", nullable: true }, children: { type: "array", items: { $ref: "#/components/schemas/Item" } } },
      },
    },
  },
};

test("one tool per operation: names sanitised and unique, inputs from parameters and body with $refs resolved", () => {
  const tools = toolsFromDocument(doc, null);
  assert.deepEqual(
    tools.map((t) => t.name),
    ["get_item", "putItem", "deleteItem", "get_lists", "x".repeat(64)],
  );
  const get = tools[0];
  assert.equal(get.description, "One item\n\nBy its id.");
  assert.deepEqual(get.annotations, { readOnlyHint: true });
  // The path's `id` and the query's `id` both survive: the second under its place's prefix.
  assert.deepEqual(Object.keys(get.inputSchema.properties as object), ["id", "query_id"]);
  assert.deepEqual(get.inputSchema.required, ["id"]);
  assert.deepEqual(get.binding.params, [
    { in: "path", name: "id", argument: "id", required: true },
    { in: "query", name: "id", argument: "query_id", required: false },
  ]);
  // The output schema: the $ref inlined, the recursion cut, OpenAPI 3.0's nullable made a JSON Schema type.
  const out = get.outputSchema as { type: string; properties: { name: { type: unknown }; children: { items: unknown } } };
  assert.equal(out.type, "object");
  assert.deepEqual(out.properties.name.type, ["string", "null"]);
  assert.deepEqual(out.properties.children.items, {});
  assert.equal(tools[1].binding.body?.argument, "body");
  assert.deepEqual(tools[1].annotations, { readOnlyHint: false, idempotentHint: true });
  assert.deepEqual(tools[2].annotations, { readOnlyHint: false, destructiveHint: true });
  assert.equal(tools[3].outputSchema, undefined, "an array answer has no output schema (structured content is an object)");
});

test("the provider's include, exclude, renames and off switch", () => {
  const names = (s: Parameters<typeof toolsFromDocument>[1]) => toolsFromDocument(doc, s).map((t) => t.name);
  assert.deepEqual(names({ include: { tags: ["lists"] } }), ["get_lists", "x".repeat(64)]);
  assert.deepEqual(names({ include: { operations: ["putItem"], tags: ["lists"] }, exclude: { operations: ["get_lists"] } }), [
    "putItem",
    "x".repeat(64),
  ]);
  assert.deepEqual(names({ exclude: { tags: ["items", "lists"] } }), ["putItem", "deleteItem"]);
  // A rename takes its name first: the operation that would have had it gets a suffix.
  assert.deepEqual(names({ include: { operations: ["putItem", "deleteItem"] }, tools: { deleteItem: { name: "putItem" } } }), [
    "putItem_2",
    "putItem",
  ]);
  assert.equal(toolsFromDocument(doc, { tools: { deleteItem: { description: "Gone." } } })[2].description, "Gone.");
  assert.deepEqual(names({ enabled: false }), []);
  assert.equal(sanitizeToolName("/a b/{c}"), "a_b_c");
});

test("arguments become the request; a path argument is one segment whatever it holds", () => {
  const [get, put] = toolsFromDocument(doc, null);
  assert.deepEqual(toolRequest(get, { id: "a/b", query_id: 3 }), {
    method: "GET",
    pathWithQuery: "/items/a%2Fb?id=3",
    headers: {},
    body: null,
  });
  for (const [value, segment] of [
    ["../x", "..%2Fx"],
    ["...", "..."],
    ["%2F", "%252F"],
    ["a?b#c", "a%3Fb%23c"],
    ["{id}", "%7Bid%7D"],
  ])
    assert.equal(pathSegment(value), segment, value);
  assert.throws(() => toolRequest(get, {}), ToolArgumentError);
  assert.throws(() => toolRequest(get, { id: ".." }), /cannot be '\.\.'/);
  assert.throws(() => toolRequest(get, { id: "." }), ToolArgumentError);
  const made = toolRequest(put, { id: "1", body: { name: "n" } });
  assert.equal(made.body?.toString(), '{"name":"n"}');
  assert.equal(made.headers["content-type"], "application/json");
});

test("results: JSON as structured content, long text cut with a note, upstream errors and refusals as tool errors", () => {
  const answer = (status: number, type: string, body: string) => ({
    status,
    responseHeaders: { "content-type": type },
    body: Buffer.from(body),
    complete: true,
    responseBytes: body.length,
  });
  const json = toolResult(answer(200, "application/json", '{"a":1}'), { requestId: "req_1" });
  assert.deepEqual(json.structuredContent, { a: 1 });
  assert.equal(json.content[0].text, '{"a":1}');
  assert.equal(toolResult(answer(200, "application/json", "[1]"), {}).structuredContent, undefined);
  const long = toolResult(answer(200, "text/plain", "y".repeat(MAX_TEXT + 10)), {});
  assert.match(long.content[0].text, /\[The answer was cut here: 100010 bytes/);
  const failed = toolResult(answer(503, "text/plain", "down"), {});
  assert.equal(failed.isError, true);
  assert.equal(failed.content[0].text, "The API answered 503: down");
  const limited = refusalResult(
    { status: 429, headers: { "Retry-After": "12" } },
    new ApiError({ status: 429, type: "rate_limit_error", code: "RATE_LIMIT_EXCEEDED", message: "Too many." }),
    { baseUrl: "http://x", slug: "s" },
    {},
  );
  assert.equal(limited.content[0].text, "RATE_LIMIT_EXCEEDED: Too many. Retry after 12 seconds.");
  assert.equal(limited._meta?.retryAfter, 12);
  const unsubscribed = refusalResult(
    { status: 403, headers: {} },
    new ApiError({ status: 403, type: "authorization_error", code: "PRODUCT_NOT_SUBSCRIBED", message: "No." }),
    { baseUrl: "http://x", slug: "s" },
    {},
  );
  assert.match(unsubscribed.content[0].text, /Subscribe to the product at http:\/\/x\/p\/s/);
});
