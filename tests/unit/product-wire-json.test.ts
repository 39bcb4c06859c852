// The API's product list takes most rows as JSON text SQLite wrote in their wire shape (find-product-row.ts), and
// the envelope puts that text in as it is. These tests hold the text to what serializeProduct and JSON.stringify
// make of the same rows, byte for byte, across the values that could tell them apart: text needing escapes, NULLs
// and JSON nulls, booleans, an expanded business, dates in and out of the adapter's form, an API product (the
// rows SQLite leaves to serializeProduct).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

const dir = mkdtempSync(path.join(tmpdir(), "product-wire-json-"));
const file = path.join(dir, "unit.db");
process.env.DATABASE_URL = `file:${file}`;

// The schema, from the migrations as they are.
const setup = new Database(file);
after(() => {
  setup.close();
  rmSync(dir, { recursive: true, force: true });
});
setup.pragma("journal_mode = WAL");
for (const m of readdirSync("prisma/migrations", { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .sort((a, b) => a.name.localeCompare(b.name))) {
  setup.exec(readFileSync(path.join("prisma/migrations", m.name, "migration.sql"), "utf8"));
}

const { findProductRowsDirect } = await import("@/lib/products/find-product-row");
const { serializeProduct } = await import("@/lib/products/serialize");
const { collectionEnvelopeJson, RawJson } = await import("@/lib/http/envelope");
const { sealSecretHeaders } = await import("@/lib/products/api-secret-headers");

const BUSINESS = "biz_wire";
const adapterDate = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");
setup
  .prepare(`INSERT INTO "Business" ("id", "name", "updatedAt") VALUES (?, ?, ?)`)
  .run(BUSINESS, 'Acme "Quoted" \\ Ünïcödé\n\u2028', adapterDate(0));

const insert = setup.prepare(`INSERT INTO "Product" ("id", "businessId", "environment", "name", "type", "description",
  "isActive", "industries", "productCategories", "interfaces", "visibility", "slug", "api", "apiSecretHeaders",
  "publishedAt", "createdAt", "updatedAt") VALUES (@id, @businessId, 'test', @name, @type, @description, @isActive,
  @industries, @productCategories, @interfaces, @visibility, @slug, @api, @apiSecretHeaders, @publishedAt,
  @createdAt, @updatedAt)`);

let n = 0;
function product(over: Record<string, unknown>) {
  n++;
  const at = Date.UTC(2026, 0, 1) + n * 1001;
  insert.run({
    id: `prod_${String(n).padStart(4, "0")}`,
    businessId: BUSINESS,
    name: `Product ${n}`,
    type: "SaaS",
    description: null,
    isActive: 1,
    industries: null,
    productCategories: null,
    interfaces: null,
    visibility: "private",
    slug: null,
    api: null,
    apiSecretHeaders: null,
    publishedAt: null,
    createdAt: adapterDate(at),
    updatedAt: adapterDate(at + 7),
    ...over,
  });
}

const control = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join("");
product({});
product({ name: `Quotes " and \\ backslash, ${control}\u007f\u2028\u2029 é 😀`, description: "line\nbreak\ttab" });
product({ isActive: 0, visibility: "public", slug: "a-slug", type: "Data" });
product({ industries: '["fintech","health"]', productCategories: "[]", interfaces: '{"hasAPI":true,"hasSDK":false}' });
product({ industries: "null", productCategories: "null", interfaces: "null", api: "null" });
product({ publishedAt: adapterDate(Date.UTC(2026, 5, 1, 12, 0, 0, 999)), description: "" });
product({ createdAt: "2026-01-01 00:00:00", updatedAt: String(Date.UTC(2026, 1, 1)) }); // not the adapter's form
product({
  type: "API",
  api: JSON.stringify({
    upstreamUrl: "http://127.0.0.1:9/v1",
    sandboxUpstreamUrl: null,
    timeoutMs: 3000,
    openapiUrl: null,
    openapiDocument: null,
  }),
  apiSecretHeaders: sealSecretHeaders("prod_api", { "X-Upstream-Key": "secret" }),
});

const ARGS = {
  where: { AND: [{ businessId: BUSINESS, environment: "test" }] },
  orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  take: 50,
  skip: 0,
};

for (const expand of [false, true]) {
  test(`each row SQLite writes is serializeProduct's JSON to the byte${expand ? " (business expanded)" : ""}`, () => {
    const objects = findProductRowsDirect(ARGS, expand)!;
    const wire = findProductRowsDirect(ARGS, expand, true)!;
    assert.equal(objects.length, n);
    assert.equal(wire.length, n);
    let asText = 0;
    for (let i = 0; i < n; i++) {
      const expected = JSON.stringify(serializeProduct(objects[i] as Parameters<typeof serializeProduct>[0]));
      const row = wire[i];
      if ("wire" in row) {
        asText++;
        assert.equal(row.wire.text, expected);
        // What a cursor is made of, as the object rows have it.
        for (const f of ["id", "name", "type", "createdAt", "updatedAt"] as const)
          assert.equal(row[f], (objects[i] as Record<string, unknown>)[f], f);
      } else {
        assert.equal(JSON.stringify(serializeProduct(row)), expected);
      }
    }
    // All but the API product and the one with other date text: the test would pass vacuously otherwise.
    assert.equal(asText, n - 2);
  });
}

test("the collection envelope with JSON text items is JSON.stringify's text for the same items", () => {
  const items = [{ a: 1, b: "x\ny" }, { c: null }];
  const pagination = { total: 2, limit: 20, offset: 0, hasMore: false, nextCursor: null };
  const meta = { timestamp: "2026-01-01T00:00:00.000Z", requestId: "req_1", warning: "w" };
  const expected = JSON.stringify({ data: items, pagination, meta });
  assert.equal(collectionEnvelopeJson(items, pagination, meta), expected);
  assert.equal(collectionEnvelopeJson([new RawJson(JSON.stringify(items[0])), items[1]], pagination, meta), expected);
  assert.equal(collectionEnvelopeJson([], pagination, meta), JSON.stringify({ data: [], pagination, meta }));
});
