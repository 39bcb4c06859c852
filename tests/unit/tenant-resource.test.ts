// The resource kit (lib/db/tenant-resource.ts): get-or-404 and lists scoped to the caller's business and environment.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tenantResource } from "@/lib/db/tenant-resource";
import { ApiError } from "@/lib/http/errors";
import { newId } from "@/lib/ids";
import { testAuth } from "../helpers/request-context";

function fakeModel<Row extends Record<string, unknown>>(rows: Row[]) {
  const calls: unknown[] = [];
  const matches = (row: Record<string, unknown>, where: Record<string, unknown>): boolean =>
    Object.entries(where).every(([k, v]) => (k === "AND" ? (v as Record<string, unknown>[]).every((w) => matches(row, w)) : row[k] === v));
  return {
    calls,
    findFirst: async (args: { where: Record<string, unknown> }) =>
      (calls.push(args), rows.find((r) => matches(r, args.where)) ?? null) as Row | null,
    findMany: async (args: { where: Record<string, unknown> }) => rows.filter((r) => matches(r, args.where)),
    count: async (args: { where: Record<string, unknown> }) => rows.filter((r) => matches(r, args.where)).length,
  };
}

const auth = testAuth();
const mine = { id: newId("invoice"), businessId: auth.businessId, environment: auth.environment, createdAt: new Date(1) };
const foreign = { id: newId("invoice"), businessId: "biz_other", environment: auth.environment, createdAt: new Date(2) };

test("get: the caller's own row; another business's, or a malformed id (never looked up), is a 404 naming it", async () => {
  const model = fakeModel([mine, foreign]);
  const invoices = tenantResource({ model: () => model, idKind: "invoice", label: "invoice" });
  assert.equal((await invoices.getOrThrow(auth, mine.id)).id, mine.id);
  await assert.rejects(
    invoices.getOrThrow(auth, foreign.id),
    (e: unknown) => e instanceof ApiError && e.status === 404 && /invoice/.test(e.message),
  );
  const before = model.calls.length;
  await assert.rejects(invoices.getOrThrow(auth, "prod_not_an_invoice"), (e: unknown) => e instanceof ApiError && e.status === 404);
  assert.equal(model.calls.length, before, "a malformed id is not looked up");
});

test("list: only the caller's rows, with extra scope (a parent) when given", async () => {
  const model = fakeModel([mine, foreign]);
  const invoices = tenantResource({
    model: () => model,
    idKind: "invoice",
    label: "invoice",
    collection: { filters: {}, sortable: ["createdAt"], defaultSort: "-createdAt", expandable: [] } as never,
    serialize: (r: typeof mine) => ({ id: r.id }),
  });
  const query = {
    limit: 10,
    offset: 0,
    sort: [{ field: "createdAt", dir: "desc" }],
    sortKey: "-createdAt",
    filters: [],
    fields: null,
    expand: [],
    cursor: null,
  } as never;
  const page = await invoices.list(auth, query);
  assert.deepEqual(page.data, [{ id: mine.id }]);
  assert.equal(page.pagination.total, 1);
  const none = await invoices.list(auth, query, { businessId: "nobody" });
  assert.equal(none.pagination.total, 0);
});
