// A product's OpenAPI document as Markdown (/p/{slug}/docs.md): each operation with its method, path, summary,
// parameters, request body and responses, schemas written on one line and $refs followed; a malformed or hostile
// document never throws.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApiToMarkdown, schemaBrief } from "@/lib/docs/openapi-markdown";

const DOC = {
  openapi: "3.1.0",
  info: { title: "Weather", version: "2.1.0", description: "Forecasts by city." },
  servers: [{ url: "https://up.example.com" }],
  paths: {
    "/forecast/{city}": {
      parameters: [{ name: "city", in: "path", required: true, schema: { type: "string" }, description: "City | name" }],
      get: {
        summary: "A city's forecast",
        parameters: [{ $ref: "#/components/parameters/Days" }],
        responses: {
          "200": { description: "The forecast", content: { "application/json": { schema: { $ref: "#/components/schemas/Forecast" } } } },
          "404": { description: "No such city" },
        },
      },
    },
    "/alerts": {
      post: {
        summary: "Subscribe to alerts",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["city"],
                properties: {
                  city: { type: "string" },
                  level: { enum: ["watch", "warning"] },
                  email: { type: ["string", "null"], format: "email" },
                },
              },
            },
          },
        },
        responses: { "201": { description: "Created" } },
      },
    },
  },
  components: {
    parameters: { Days: { name: "days", in: "query", schema: { type: "integer" }, description: "How many days" } },
    schemas: {
      Forecast: {
        type: "object",
        required: ["city", "days"],
        properties: { city: { type: "string" }, days: { type: "array", items: { $ref: "#/components/schemas/Day" } } },
      },
      Day: { type: "object", properties: { date: { type: "string", format: "date" }, high: { type: "number" } } },
    },
  },
};

test("every operation has its method and path as a heading, with its summary", () => {
  const md = openApiToMarkdown(DOC, { title: "Weather API", serverUrl: "https://p.example/gw/weather" });
  assert.match(md, /^# Weather API\n/);
  assert.match(md, /^## GET \/forecast\/\{city\}\n\nA city's forecast$/m);
  assert.match(md, /^## POST \/alerts\n\nSubscribe to alerts$/m);
  assert.match(md, /Base URL: `https:\/\/p\.example\/gw\/weather`/, "the given server, not the upstream's");
  assert.doesNotMatch(md, /up\.example\.com/);
  assert.match(md, /Version: 2\.1\.0/);
  assert.match(md, /Forecasts by city\./);
});

test("parameters come from the path item and the operation, $refs followed, in a table", () => {
  const md = openApiToMarkdown(DOC);
  assert.match(md, /\| `city` \| path \| yes \| `string` \| City \\\| name \|/, "a pipe in a description is escaped");
  assert.match(md, /\| `days` \| query \| no \| `integer` \| How many days \|/);
});

test("request bodies and responses name their media type and a brief schema", () => {
  const md = openApiToMarkdown(DOC);
  assert.match(
    md,
    /\*\*Request body\*\* \(required\)\n\n- application\/json: `\{ city: string, level\?: "watch" \| "warning", email\?: string \(email\) \| null \}`/,
  );
  assert.match(
    md,
    /- `200` The forecast: application\/json: `\{ city: string, days: \{ date\?: string \(date\), high\?: number \}\[\] \}`/,
  );
  assert.match(md, /- `404` No such city$/m);
  assert.match(md, /- `201` Created$/m);
});

test("schemaBrief: unions, arrays of unions, maps, deep and unknown schemas", () => {
  assert.equal(schemaBrief({}, { oneOf: [{ type: "string" }, { type: "integer" }] }), "string | integer");
  assert.equal(schemaBrief({}, { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } }), "(string | number)[]");
  assert.equal(schemaBrief({}, { type: "object", additionalProperties: { type: "number" } }), "{ [key]: number }");
  assert.equal(schemaBrief({}, { $ref: "#/components/schemas/Missing" }), "Missing");
  assert.equal(schemaBrief({}, { $ref: "https://elsewhere.example/s.json" }), "https://elsewhere.example/s.json");
  assert.equal(schemaBrief({}, undefined), "any");
  const deep = {
    type: "object",
    properties: {
      a: {
        type: "object",
        properties: { b: { type: "object", properties: { c: { type: "object", properties: { d: { type: "string" } } } } } },
      },
    },
  };
  assert.equal(schemaBrief({}, deep), "{ a?: { b?: { c?: {…} } } }");
});

test("a self-referencing schema or a malformed document does not throw", () => {
  const loop = { components: { schemas: { Node: { type: "object", properties: { next: { $ref: "#/components/schemas/Node" } } } } } };
  assert.match(schemaBrief(loop, { $ref: "#/components/schemas/Node" }), /^\{ next\?: /);
  const self = { components: { schemas: { A: { $ref: "#/components/schemas/A" } } } };
  assert.equal(typeof schemaBrief(self, { $ref: "#/components/schemas/A" }), "string");
  for (const bad of [
    {},
    { paths: null },
    { paths: { "/x": { get: "nope", post: { responses: [1] } } } },
    { paths: { "/y": { get: { parameters: [null, 3] } } } },
  ])
    assert.equal(typeof openApiToMarkdown(bad as Record<string, unknown>), "string");
  assert.match(openApiToMarkdown({ paths: {} }, { title: "Empty" }), /# Empty\n\nThe document describes no operation\./);
});
