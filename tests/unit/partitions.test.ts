// Day partitions of RequestLog and UsageEvent on PostgreSQL (lib/db/partitions.ts), on a database of the local
// server of its own: a day's partition made ahead takes that day's rows (also the ones the default partition held
// before it existed), queries on a day read only its partition, two makers at once make each partition once, and
// retention drops whole days past the longest retention while a project that keeps less loses only its own rows.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
// @ts-expect-error: plain ESM script without types
import { createTestDatabase } from "../../scripts/lib/test-database.mjs";

let database: { url: string; drop(): Promise<void> };
let parts: typeof import("@/lib/db/partitions");
let retention: typeof import("@/lib/jobs/retention");
let clock: typeof import("@/lib/clock");
let dbc: typeof import("@/lib/db/client");
let sql: pg.Client;

const DAY = 86_400_000;
const DAY0 = new Date("2031-03-10T00:00:00Z");
const at = (days: number, hours = 12) => new Date(DAY0.getTime() + days * DAY + hours * 3_600_000);

before(async () => {
  database = await createTestDatabase("postgres");
  process.env.DATABASE_URL = database.url;
  parts = await import("@/lib/db/partitions");
  retention = await import("@/lib/jobs/retention");
  clock = await import("@/lib/clock");
  dbc = await import("@/lib/db/client");
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  await dbc.db.business.create({ data: { id: "biz_p", name: "P" } });
});
after(async () => {
  clock?.resetClock();
  await sql?.end();
  await dbc?.db.$disconnect();
  await database?.drop();
});

let seq = 0;
async function log(projectId: string, timestamp: Date): Promise<string> {
  const id = `req_part_${++seq}`;
  await dbc.db.requestLog.create({
    data: {
      id,
      timestamp,
      businessId: "biz_p",
      projectId,
      environment: "test",
      apiKey: "key_x",
      method: "GET",
      endpoint: "/v1/products",
      path: "/v1/products",
      statusCode: 200,
      latency: 1,
      requestHeaders: {},
      responseHeaders: {},
    },
  });
  return id;
}

async function partitionOf(table: string, id: string): Promise<string | null> {
  const r = await sql.query(`SELECT tableoid::regclass::text AS p FROM "${table}" WHERE id = $1`, [id]);
  return r.rows[0]?.p?.replaceAll('"', "") ?? null;
}

test("a day's partition takes the rows the default partition held of it; later rows go straight to it", async () => {
  const early = await log("proj_a", at(0));
  const later = await log("proj_a", at(9)); // beyond the window made below
  assert.equal(await partitionOf("RequestLog", early), "RequestLog_default", "no partition yet: the default one");

  const made = await parts.ensureDayPartitions(at(0), 2);
  assert.deepEqual(made, [
    "RequestLog_20310310",
    "RequestLog_20310311",
    "RequestLog_20310312",
    "UsageEvent_20310310",
    "UsageEvent_20310311",
    "UsageEvent_20310312",
  ]);
  assert.equal(await partitionOf("RequestLog", early), "RequestLog_20310310", "moved out of the default partition");
  assert.equal(await partitionOf("RequestLog", later), "RequestLog_default", "a day without a partition stays in the default one");
  const next = await log("proj_a", at(1, 23));
  assert.equal(await partitionOf("RequestLog", next), "RequestLog_20310311");

  // The partition has the parent's indexes (built on attach), and a query on a day reads that day's partition only.
  const idx = await sql.query(`SELECT indexdef FROM pg_indexes WHERE tablename = 'RequestLog_20310311'`);
  assert.ok(
    idx.rows.some((r) => /UNIQUE.*\(id, "timestamp"\)/.test(r.indexdef)),
    JSON.stringify(idx.rows),
  );
  assert.ok(idx.rows.some((r) => /"projectId", environment, "timestamp", id/.test(r.indexdef)));
  const plan = await sql.query(
    `EXPLAIN SELECT * FROM "RequestLog" WHERE "projectId" = 'proj_a' AND "timestamp" >= '2031-03-11' AND "timestamp" < '2031-03-12'`,
  );
  const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
  assert.match(text, /RequestLog_20310311/);
  assert.doesNotMatch(text, /RequestLog_20310310|RequestLog_default|RequestLog_20310312/, text);

  assert.deepEqual(await parts.ensureDayPartitions(at(0), 2), [], "made once");
});

test("two makers at once make each partition once, without an error", async () => {
  const both = await Promise.all([parts.ensureDayPartitions(at(20), 1), parts.ensureDayPartitions(at(20), 1)]);
  assert.deepEqual(both.flat().sort(), ["RequestLog_20310330", "RequestLog_20310331", "UsageEvent_20310330", "UsageEvent_20310331"]);
  const list = (await parts.dayPartitions("RequestLog")).map((p) => p.name);
  assert.deepEqual(list, [
    "RequestLog_20310310",
    "RequestLog_20310311",
    "RequestLog_20310312",
    "RequestLog_20310330",
    "RequestLog_20310331",
  ]);
});

test("retention drops the days past the longest retention whole, and deletes only what a shorter one expires", async () => {
  await dbc.db.project.create({ data: { id: "proj_long", businessId: "biz_p", name: "Long", retentionDays: 20 } });
  await dbc.db.project.create({ data: { id: "proj_short", businessId: "biz_p", name: "Short", retentionDays: 5 } });
  const old = await log("proj_long", at(1)); // in RequestLog_20310311
  const shortOld = await log("proj_short", at(20, 1)); // in RequestLog_20310330
  const shortNew = await log("proj_short", at(31, 12)); // default partition: no partition for that day
  const longKept = await log("proj_long", at(20, 2));
  const usage = await dbc.db.usageEvent.create({
    data: {
      id: "usage_part_1",
      timestamp: at(1),
      businessId: "biz_p",
      projectId: "proj_long",
      environment: "test",
      apiKey: "key_x",
      method: "GET",
      endpoint: "/x",
      path: "/x",
      statusCode: 200,
      latency: 1,
      requestSize: 0,
      responseSize: 0,
      billable: false,
    },
  });

  // At day 33: the longest retention (20 days) reaches back to day 13, so the days 10 to 12 go whole.
  clock.setClock(clock.fixedClock(at(33, 0)));
  const r = await retention.purgeExpiredLogs();
  assert.deepEqual(r.droppedPartitions, ["RequestLog_20310310", "RequestLog_20310311", "RequestLog_20310312"]);
  const rest = (await parts.dayPartitions("RequestLog")).map((p) => p.name);
  assert.deepEqual(rest, ["RequestLog_20310330", "RequestLog_20310331"]);
  const left = new Set((await dbc.db.requestLog.findMany({ select: { id: true } })).map((x) => x.id));
  assert.equal(left.has(old), false, "its day was dropped");
  assert.equal(left.has(shortOld), false, "13 days old, retention 5: deleted from a kept day");
  assert.equal(left.has(longKept), true, "13 days old, retention 20: kept");
  assert.equal(left.has(shortNew), true, "a day old: kept");
  assert.equal(r.deleted, 1, "one row deleted: the rest went with their days");
  // Usage events keep every day: they are the ledger's.
  assert.ok(await dbc.db.usageEvent.findFirst({ where: { id: usage.id } }));
  assert.ok((await parts.dayPartitions("UsageEvent")).some((p) => p.name === "UsageEvent_20310311"));
  clock.resetClock();
});

test(
  "a drop waiting behind a long read gives up after its lock timeout instead of queueing every insert behind it",
  { timeout: 30_000 },
  async () => {
    const reader = new pg.Client({ connectionString: database.url });
    await reader.connect();
    try {
      // A long read holds the parent table: a DROP of one of its partitions must wait for it.
      await reader.query("BEGIN");
      await reader.query(`SELECT count(*) FROM "RequestLog"`);
      const started = Date.now();
      await assert.rejects(parts.dropDayPartitionsBefore("RequestLog", new Date("2031-04-01T00:00:00Z")), /lock timeout/i);
      const waited = Date.now() - started;
      assert.ok(waited >= 2500 && waited < 20_000, `gave up after ${waited} ms`);
      await reader.query("COMMIT");
      // Once the read is done, the next run drops them.
      assert.deepEqual(await parts.dropDayPartitionsBefore("RequestLog", new Date("2031-04-01T00:00:00Z")), [
        "RequestLog_20310330",
        "RequestLog_20310331",
      ]);
    } finally {
      await reader.end();
    }
  },
);

test("partitions are PostgreSQL's: names and days in UTC, the window's size from PARTITION_DAYS_AHEAD", () => {
  assert.equal(parts.partitionName("UsageEvent", new Date("2031-01-02T23:59:59Z")), "UsageEvent_20310102");
  assert.equal(parts.utcDay(new Date("2031-01-02T23:59:59.999Z")).toISOString(), "2031-01-02T00:00:00.000Z");
  assert.equal(parts.partitionDaysAhead({ PARTITION_DAYS_AHEAD: "14" }), 14);
  assert.equal(parts.partitionDaysAhead({ PARTITION_DAYS_AHEAD: "0" }), 7);
  assert.equal(parts.partitionDaysAhead({}), 7);
});
