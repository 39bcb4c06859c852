import { analyticsDb, databaseProvider } from "@/lib/db/client";

// The sums metrics need, computed by the database over the hourly rollups of one project and environment: a
// month is tens of thousands of rollup rows, and loading each through Prisma (with its JSON histogram) cost
// seconds. Three grouped queries answer instead, each with at most buckets x dimensions rows:
//   - counters per time bucket and dimension (method, endpoint, status, error type);
//   - distinct keys and principals;
//   - latency histogram counts per time bucket and histogram bucket (the JSON objects expanded in SQL).
// SQLite stores DateTime as ISO 8601 text (Prisma's adapter) and JSON as text; PostgreSQL as timestamp(3) and
// jsonb: the two dialects differ only in how a row's epoch second and its histogram entries are read.

export interface RollupScope {
  projectId: string;
  environment: string;
  firstHour: Date;
  to: Date;
  bucketSeconds: number;
  /** Only the calls of these products (a product's portal); all of the project's calls when absent. */
  productIds?: string[];
}

export interface DimensionSum {
  bucket: number;
  method: string;
  endpoint: string;
  statusCode: number;
  errorType: string | null;
  count: number;
  billable: number;
  latencySum: number;
  bytes: number;
  computeMs: number;
  cost: number;
}
export interface HistogramSum {
  bucket: number;
  latency: string;
  count: number;
}

function dialect() {
  if (databaseProvider() === "postgresql") {
    return {
      param: (i: number) => `$${i}`,
      bucket: (size: number) => `(FLOOR(EXTRACT(EPOCH FROM r."hour") / ${size}) * ${size})`,
      histFrom: `jsonb_each_text(r."latencyHist") h`,
      histCount: `h.value::float8`,
      num: (expr: string) => `(${expr})::float8`,
    };
  }
  return {
    param: () => "?",
    // Dates are ISO text (a database written with Prisma's "unixepoch-ms" format would hold integers); integer
    // division floors the (positive) epoch seconds.
    bucket: (size: number) =>
      `((CASE WHEN typeof(r."hour") = 'integer' THEN r."hour" / 1000 ELSE CAST(strftime('%s', r."hour") AS INTEGER) END) / ${size} * ${size})`,
    histFrom: `json_each(r."latencyHist") h`,
    histCount: `h.value`,
    num: (expr: string) => expr,
  };
}

function scopeSql(d: ReturnType<typeof dialect>, s: RollupScope) {
  const bucket = d.bucket(s.bucketSeconds);
  let where = `r."projectId" = ${d.param(1)} AND r."environment" = ${d.param(2)} AND r."hour" >= ${d.param(3)} AND r."hour" <= ${d.param(4)}`;
  const params: unknown[] = [s.projectId, s.environment, s.firstHour, s.to];
  if (s.productIds) {
    // No product matches nothing (an empty IN list is not valid SQL everywhere).
    const ids = s.productIds.length ? s.productIds : [""];
    where += ` AND r."productId" IN (${ids.map((_, i) => d.param(5 + i)).join(", ")})`;
    params.push(...ids);
  }
  return { bucket, where, params };
}

const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

export async function dimensionSums(s: RollupScope): Promise<DimensionSum[]> {
  if (!Number.isInteger(s.bucketSeconds) || s.bucketSeconds <= 0) throw new Error("bucketSeconds must be a positive integer");
  const d = dialect();
  const { bucket, where, params } = scopeSql(d, s);
  const rows = await analyticsDb.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT ${d.num(bucket)} AS "bucket", r."method", r."endpoint", r."statusCode", r."errorType",
       ${d.num(`SUM(r."count")`)} AS "count", ${d.num(`SUM(r."billableCount")`)} AS "billable", ${d.num(`SUM(r."latencySum")`)} AS "latencySum",
       ${d.num(`SUM(r."requestBytes" + r."responseBytes")`)} AS "bytes", ${d.num(`SUM(r."computeMs")`)} AS "computeMs", ${d.num(`SUM(r."cost")`)} AS "cost"
     FROM "UsageRollup" r WHERE ${where}
     GROUP BY 1, r."method", r."endpoint", r."statusCode", r."errorType"`,
    ...params,
  );
  return rows.map((r) => ({
    bucket: n(r.bucket),
    method: String(r.method),
    endpoint: String(r.endpoint),
    statusCode: n(r.statusCode),
    errorType: r.errorType === null ? null : String(r.errorType),
    count: n(r.count),
    billable: n(r.billable),
    latencySum: n(r.latencySum),
    bytes: n(r.bytes),
    computeMs: n(r.computeMs),
    cost: n(r.cost),
  }));
}

export async function distinctCounts(s: RollupScope): Promise<{ keys: number; principals: number }> {
  const d = dialect();
  const { where, params } = scopeSql(d, s);
  const [row] = await analyticsDb.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT ${d.num(`COUNT(DISTINCT r."apiKey")`)} AS "keys", ${d.num(`COUNT(DISTINCT r."principal")`)} AS "principals"
     FROM "UsageRollup" r WHERE ${where}`,
    ...params,
  );
  return { keys: n(row?.keys), principals: n(row?.principals) };
}

export async function histogramSums(s: RollupScope): Promise<HistogramSum[]> {
  const d = dialect();
  const { bucket, where, params } = scopeSql(d, s);
  const rows = await analyticsDb.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT ${d.num(bucket)} AS "bucket", h.key AS "latency", ${d.num(`SUM(${d.histCount})`)} AS "count"
     FROM "UsageRollup" r, ${d.histFrom} WHERE ${where}
     GROUP BY 1, h.key`,
    ...params,
  );
  return rows.map((r) => ({ bucket: n(r.bucket), latency: String(r.latency), count: n(r.count) }));
}
