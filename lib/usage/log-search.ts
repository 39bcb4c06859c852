import { analyticsDb, db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { invalidParameter } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";
import { listCollection } from "@/lib/http/list-collection";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import type { RequestLog as LogRow } from "@/generated/prisma-sqlite";
import { LOG_COLLECTION, serializeLog } from "./routes";

// The portal's log search, as Stripe's request log filters: status class, method, path prefix, key, a date range
// (a preset or from/to) and free text. The filters are the page's URL parameters, so a search is a link; they
// are read here into a Prisma where and handed to the API's collection listing (cursor pages, q, method).

export const LOG_RANGES = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type LogRange = keyof typeof LOG_RANGES;
export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const;
const METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE"];

export interface LogFilters {
  status?: (typeof STATUS_CLASSES)[number];
  method?: string;
  path?: string;
  key?: string;
  range?: LogRange;
  from?: Date;
  to?: Date;
  q?: string;
}

function date(name: "from" | "to", v: string): Date {
  const d = new Date(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(d.getTime()))
    throw invalidParameter(name, `'${name}' must be a date and time, such as 2026-05-01T12:00.`);
  return d;
}

/** The filters of a logs URL, checked; anything unknown or malformed is a 400 naming the parameter. */
export function parseLogFilters(p: URLSearchParams): LogFilters {
  const f: LogFilters = {};
  const status = p.get("status");
  if (status) {
    if (!(STATUS_CLASSES as readonly string[]).includes(status)) throw invalidParameter("status", "Status must be 2xx, 3xx, 4xx or 5xx.");
    f.status = status as LogFilters["status"];
  }
  const method = p.get("method");
  if (method) {
    if (!METHODS.includes(method.toUpperCase())) throw invalidParameter("method", `Method must be one of ${METHODS.join(", ")}.`);
    f.method = method.toUpperCase();
  }
  const path = p.get("path")?.trim();
  if (path) f.path = path.slice(0, 500);
  const key = p.get("key")?.trim();
  if (key) f.key = key.slice(0, 100);
  const q = p.get("q")?.trim();
  if (q) f.q = q.slice(0, 200);
  const range = p.get("range");
  if (range) {
    if (!Object.hasOwn(LOG_RANGES, range)) throw invalidParameter("range", "The range must be 1h, 24h, 7d or 30d.");
    f.range = range as LogRange;
  }
  const from = p.get("from");
  const to = p.get("to");
  if (from) f.from = date("from", from);
  if (to) f.to = date("to", to);
  if (f.from && f.to && f.from > f.to) throw invalidParameter("from", "'from' is after 'to'.");
  return f;
}

/** The where of the filters the API's collection query does not express (prefix, class, range). */
export function logWhere(f: LogFilters, at: Date = now()): Record<string, unknown>[] {
  const and: Record<string, unknown>[] = [];
  if (f.status) {
    const base = Number(f.status[0]) * 100;
    and.push({ statusCode: { gte: base, lt: base + 100 } });
  }
  if (f.method) and.push({ method: f.method });
  if (f.path) and.push({ path: { startsWith: f.path } });
  if (f.key) and.push({ apiKey: f.key });
  // Explicit from/to win over a preset; a preset counts back from now.
  const from = f.from ?? (f.range ? new Date(at.getTime() - LOG_RANGES[f.range]) : undefined);
  if (from) and.push({ timestamp: { gte: from } });
  if (f.to) and.push({ timestamp: { lte: f.to } });
  return and;
}

/** Names of the keys (and OAuth apps) that made requests, for the key column. */
export async function actorNames(auth: AuthContext, ids: string[]): Promise<Record<string, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return {};
  const [keys, apps] = await Promise.all([
    db.apiKey.findMany({ where: { id: { in: unique }, businessId: auth.businessId }, select: { id: true, name: true } }),
    db.oAuthClient.findMany({ where: { id: { in: unique }, businessId: auth.businessId }, select: { id: true, name: true } }),
  ]);
  return Object.fromEntries([...keys, ...apps].map((r) => [r.id, r.name]));
}

/** The project's keys in this environment (revoked ones too: their requests stay in the log), for the key filter. */
export function keysForLogFilter(auth: AuthContext) {
  return db.apiKey.findMany({
    where: { projectId: auth.projectId, environment: auth.environment },
    select: { id: true, name: true, revokedAt: true },
    orderBy: { createdAt: "desc" },
    take: 200,
  });
}

/**
 * What a product's portal may show of the log: only its products' calls, only the last `days` days (its
 * `retentionDays`, which can keep less than the project does, never more).
 */
export interface LogScope {
  productIds: string[];
  days?: number;
}

export function scopeWhere(scope: LogScope | undefined, at: Date = now()): Record<string, unknown>[] {
  if (!scope) return [];
  const and: Record<string, unknown>[] = [{ productId: { in: scope.productIds } }];
  if (scope.days) and.push({ timestamp: { gte: new Date(at.getTime() - scope.days * 86_400_000) } });
  return and;
}

/** One page of the portal's log search: 25 rows, newest first, each with its key's name. */
export async function searchLogs(auth: AuthContext, params: URLSearchParams, scope?: LogScope) {
  const filters = parseLogFilters(params);
  const query = new URLSearchParams({ limit: "25" });
  const cursor = params.get("cursor");
  if (cursor) query.set("cursor", cursor);
  if (filters.q) query.set("q", filters.q);
  const page = await listCollection({
    spec: LOG_COLLECTION,
    query: parseCollectionQuery(query, LOG_COLLECTION),
    baseWhere: { AND: [{ projectId: auth.projectId, ...tenantWhere(auth) }, ...logWhere(filters), ...scopeWhere(scope)] },
    from: analyticsDb.requestLog,
    serialize: (row: LogRow) => serializeLog(row, false),
  });
  const rows = page.data as ReturnType<typeof serializeLog>[];
  const names = await actorNames(
    auth,
    rows.map((r) => r.apiKey),
  );
  return { ...page, data: rows.map((r) => ({ ...r, keyName: names[r.apiKey] ?? null })) };
}
