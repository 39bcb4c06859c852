import { db } from "@/lib/db/client";
import { notFound } from "@/lib/http/errors";
import { encodeCursor, invalidCursor } from "@/lib/http/cursor";
import { pickFields, type CollectionQuery, type CollectionSpec } from "@/lib/http/collection-query";
import { listCollection } from "@/lib/http/list-collection";
import type { AuthContext } from "@/lib/http/auth-context";
import type { Pagination } from "@/lib/http/envelope";
import { nanosToDecimal, toNanos } from "./money";
import { consumerSubscription, creditSummary, priceOf } from "./credits";

// The two credit collections, in the spec's collection envelope like every other list (limit, offset, cursor,
// sort, fields, createdAt filters). The ledger is two tables read as one: CreditEntry rows (purchases, grants,
// expiries, invoices) and the burns, which are the usage events of calls paid by credits.

const LEDGER_FIELDS = ["type", "amount", "currency", "requestId", "invoiceId", "paymentId", "grantId", "note", "createdBy", "createdAt"];

export const CREDIT_LEDGER_COLLECTION: CollectionSpec = {
  filters: { createdAt: { type: "date" } },
  sortable: ["createdAt", "id"],
  fields: LEDGER_FIELDS,
};

export const CUSTOMER_CREDITS_COLLECTION: CollectionSpec = {
  filters: { createdAt: { type: "date" } },
  sortable: ["createdAt", "id"],
  fields: [
    "object",
    "subscriptionId",
    "currency",
    "billing",
    "balance",
    "pending",
    "granted",
    "spent",
    "expired",
    "spendCap",
    "periodSpend",
    "spendAlerts",
    "autoRecharge",
    "grants",
  ],
};

type Where = Record<string, unknown>;
type CreditSummary = Awaited<ReturnType<typeof creditSummary>>;

/** A where tree with one column renamed: the ledger's `createdAt` filters are the burns' `timestamp`. */
function renameColumn(where: unknown, from: string, to: string): unknown {
  if (Array.isArray(where)) return where.map((w) => renameColumn(w, from, to));
  if (!where || typeof where !== "object" || where instanceof Date) return where;
  return Object.fromEntries(Object.entries(where).map(([k, v]) => [k === from ? to : k, renameColumn(v, from, to)]));
}

interface LedgerOrder {
  dir: "asc" | "desc";
  /** Sort on id alone (sort=id / -id) rather than createdAt then id. */
  idOnly: boolean;
}

/** Rows strictly after the cursor's (createdAt, id), in the column names of one of the two tables. */
function afterCursor(query: CollectionQuery, order: LedgerOrder, timeColumn: string): Where | null {
  if (!query.cursor) return null;
  const op = order.dir === "asc" ? "gt" : "lt";
  const values = query.cursor.values;
  if (order.idOnly) {
    if (values.length !== 1 || typeof values[0] !== "string") throw invalidCursor();
    return { id: { [op]: values[0] } };
  }
  const at = typeof values[0] === "string" ? new Date(values[0]) : null;
  if (values.length !== 2 || !at || Number.isNaN(at.getTime()) || typeof values[1] !== "string") throw invalidCursor();
  return { OR: [{ [timeColumn]: { [op]: at } }, { AND: [{ [timeColumn]: at }, { id: { [op]: values[1] } }] }] };
}

export type LedgerEntry = {
  id: string;
  object: "credit_ledger_entry";
  type: "purchase" | "burn" | "refund";
  amount: string;
  currency: string;
  requestId: string | null;
  invoiceId: string | null;
  paymentId: string | null;
  grantId: string | null;
  note: string | null;
  createdBy: string | null;
  createdAt: string;
};

/** GET /v1/subscriptions/{id}/credit-ledger: every entry and burn, newest first by default. */
export async function creditLedger(
  auth: AuthContext,
  id: string,
  query: CollectionQuery,
): Promise<{ data: Partial<LedgerEntry>[]; pagination: Pagination }> {
  const sub = await consumerSubscription(auth, id);
  const { currency } = await priceOf(sub);
  const order: LedgerOrder = { dir: query.sort[0].dir, idOnly: query.sort[0].field === "id" };
  const offset = query.cursor ? 0 : query.offset;
  // Both tables' first offset + limit + 1 rows in the ledger's order hold the merged page and whether more follow.
  const take = offset + query.limit + 1;
  const orderBy = (timeColumn: string) => (order.idOnly ? [{ id: order.dir }] : [{ [timeColumn]: order.dir }, { id: order.dir }]);
  const entriesWhere: Where = { AND: [{ subscriptionId: sub.id }, ...query.filters] };
  const burnsWhere: Where = {
    AND: [
      { subscriptionId: sub.id, paidByCredits: true, cost: { not: 0 } },
      ...(renameColumn(query.filters, "createdAt", "timestamp") as Where[]),
    ],
  };
  const entryCursor = afterCursor(query, order, "createdAt");
  const burnCursor = afterCursor(query, order, "timestamp");
  const [entries, burns, entryCount, burnCount] = await Promise.all([
    db.creditEntry.findMany({
      where: entryCursor ? { AND: [entriesWhere, entryCursor] } : entriesWhere,
      orderBy: orderBy("createdAt"),
      take,
    }),
    db.usageEvent.findMany({
      where: burnCursor ? { AND: [burnsWhere, burnCursor] } : burnsWhere,
      orderBy: orderBy("timestamp"),
      take,
      select: { id: true, cost: true, timestamp: true, endpoint: true },
    }),
    db.creditEntry.count({ where: entriesWhere }),
    db.usageEvent.count({ where: burnsWhere }),
  ]);
  const rows: LedgerEntry[] = [
    ...entries.map((e) => ({
      id: e.id,
      object: "credit_ledger_entry" as const,
      type: e.type as "purchase",
      amount: nanosToDecimal(e.amountNanos),
      currency: e.currency,
      requestId: null,
      invoiceId: e.invoiceId,
      paymentId: e.paymentId,
      grantId: e.grantId,
      note: e.note,
      createdBy: e.createdBy,
      createdAt: e.createdAt.toISOString(),
    })),
    ...burns.map((b) => ({
      id: b.id,
      object: "credit_ledger_entry" as const,
      // A corrected meter event gives back what it had burned: a refund.
      type: (b.cost! < 0 ? "refund" : "burn") as "burn" | "refund",
      amount: nanosToDecimal(-toNanos(b.cost)),
      currency,
      requestId: `req_${b.id.slice(b.id.indexOf("_") + 1)}`,
      invoiceId: null,
      paymentId: null,
      grantId: null,
      note: b.endpoint,
      createdBy: null,
      createdAt: b.timestamp.toISOString(),
    })),
  ];
  const sign = order.dir === "asc" ? 1 : -1;
  const byId = (a: LedgerEntry, b: LedgerEntry) => (a.id === b.id ? 0 : a.id < b.id ? -sign : sign);
  rows.sort((a, b) => (order.idOnly || a.createdAt === b.createdAt ? byId(a, b) : a.createdAt < b.createdAt ? -sign : sign));
  const window = rows.slice(offset, offset + query.limit + 1);
  const hasMore = window.length > query.limit;
  const page = window.slice(0, query.limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => pickFields(row, query.fields)),
    pagination: {
      total: entryCount + burnCount,
      limit: query.limit,
      offset,
      hasMore,
      nextCursor:
        hasMore && last
          ? encodeCursor({ sort: query.sortKey, values: order.idOnly ? [last.id] : [last.createdAt, last.id], id: last.id })
          : null,
    },
  };
}

/** GET /v1/customers/{id}/credits, the provider's view: the customer's subscriptions to its products, each with its balance. */
export async function customerCredits(
  auth: AuthContext,
  customerId: string,
  query: CollectionQuery,
): Promise<{ data: Partial<CreditSummary>[]; pagination: Pagination }> {
  const baseWhere = { businessId: customerId, providerId: auth.businessId, environment: auth.environment };
  // A business that subscribes to none of this provider's products is nobody's business here.
  if (!(await db.subscription.count({ where: baseWhere }))) throw notFound("customer", customerId);
  const listed = await listCollection({
    spec: CUSTOMER_CREDITS_COLLECTION,
    // The rows are subscriptions; `fields` applies to the balances made from them below.
    query: { ...query, fields: null },
    baseWhere,
    from: db.subscription,
    serialize: (row: Record<string, unknown>) => row,
  });
  const balances = await Promise.all(listed.data.map((row) => creditSummary(row as Parameters<typeof creditSummary>[0])));
  return { data: balances.map((b) => pickFields(b, query.fields)), pagination: listed.pagination };
}
