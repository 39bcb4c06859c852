// listInMemory (lib/http/list-collection.ts): a collection made in code pages like the database's lists: sorted by
// the query, from an offset or after a cursor, with the envelope's pagination.
import { test } from "node:test";
import assert from "node:assert/strict";
import { listInMemory } from "@/lib/http/list-collection";
import { parseCollectionQuery, type CollectionSpec } from "@/lib/http/collection-query";

const SPEC: CollectionSpec = { filters: {}, sortable: ["releaseDate", "version"], defaultSort: "-releaseDate", fields: [] };
const rows = [
  { version: "v1", releaseDate: "2026-01-01" },
  { version: "v3", releaseDate: "2026-03-01" },
  { version: "v2", releaseDate: "2026-02-01" },
  { version: "v2b", releaseDate: "2026-02-01" },
];
const page = (qs: string) => listInMemory(rows, parseCollectionQuery(new URLSearchParams(qs), SPEC), (r) => ({ id: r.version, ...r }));

test("sorted by the default sort, id breaking ties, cut at offset and limit", () => {
  const first = page("limit=2");
  assert.deepEqual(
    first.data.map((r) => r.version),
    ["v3", "v2b"],
  );
  assert.deepEqual(
    { ...first.pagination, nextCursor: typeof first.pagination.nextCursor },
    {
      total: 4,
      limit: 2,
      offset: 0,
      hasMore: true,
      nextCursor: "string",
    },
  );
  const rest = page("limit=2&offset=2");
  assert.deepEqual(
    rest.data.map((r) => r.version),
    ["v2", "v1"],
  );
  assert.equal(rest.pagination.hasMore, false);
  assert.equal(rest.pagination.nextCursor, null);
  assert.deepEqual(page("limit=2&offset=9").data, []);
  assert.deepEqual(
    page("sort=version&limit=10").data.map((r) => r.version),
    ["v1", "v2", "v2b", "v3"],
  );
});

test("a cursor walks every row once, whatever the page size", () => {
  for (const limit of [1, 2, 3]) {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const p = page(`limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...p.data.map((r) => r.version));
      cursor = p.pagination.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, ["v3", "v2b", "v2", "v1"], `limit ${limit}`);
  }
});
