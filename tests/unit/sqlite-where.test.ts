// Prisma `where` fragments of the collection rules as SQLite SQL (lib/db/sqlite-where.ts), and what is left to Prisma.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sqliteOrderBy, sqliteWhere, type TableShape } from "@/lib/db/sqlite-where";

const shape: TableShape = {
  alias: "p",
  columns: new Set(["id", "name", "type", "isActive", "createdAt", "description"]),
  nullable: new Set(["description"]),
};

test("equality, lists, ranges and contains become parameterised SQL", () => {
  const at = new Date("2026-01-02T03:04:05.000Z");
  const f = sqliteWhere(
    {
      AND: [
        { type: { in: ["API", "SaaS"] } },
        { isActive: true },
        { createdAt: { gte: at } },
        { OR: [{ name: "a" }, { name: { contains: "b" } }] },
      ],
    },
    shape,
  );
  assert.ok(f);
  assert.equal(
    f.sql,
    `(p."type" IN (?, ?)) AND (p."isActive" = ?) AND (p."createdAt" >= ?) AND ((p."name" = ?) OR (p."name" LIKE '%' || ? || '%'))`,
  );
  assert.deepEqual(f.params, ["API", "SaaS", 1, "2026-01-02T03:04:05.000+00:00", "a", "b"]);
});

test("an empty OR matches nothing and an empty AND everything", () => {
  assert.equal(sqliteWhere({ OR: [] }, shape)?.sql, "1 = 0");
  assert.equal(sqliteWhere({ AND: [] }, shape)?.sql, "1 = 1");
});

test("relations, unknown columns and operators, and not on a nullable column are left to Prisma", () => {
  assert.equal(sqliteWhere({ business: { name: "x" } }, shape), null);
  assert.equal(sqliteWhere({ secret: "x" }, shape), null);
  assert.equal(sqliteWhere({ name: { startsWith: "x" } }, shape), null);
  assert.equal(sqliteWhere({ NOT: { name: "x" } }, shape), null);
  assert.equal(sqliteWhere({ description: { not: "x" } }, shape), null);
  assert.ok(sqliteWhere({ name: { not: "x" } }, shape));
});

test("order by own columns only", () => {
  assert.equal(sqliteOrderBy([{ createdAt: "desc" }, { id: "desc" }], shape), `ORDER BY p."createdAt" DESC, p."id" DESC`);
  assert.equal(sqliteOrderBy([{ business: { name: "asc" } }], shape), null);
  assert.equal(sqliteOrderBy([{ name: "sideways" }], shape), null);
});
