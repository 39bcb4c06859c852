// usage: node scripts/probe-partitions.mjs   (the local PostgreSQL; makes and drops a database of its own)
// What day partitions cost and save on PostgreSQL (docs/scaling.md): the recorder's batched insert of usage events
// into the partitioned "UsageEvent" (eight day partitions and the default one) beside the same insert into a plain
// table with the same columns and indexes, taking turns in one run; then retention of one day's rows, by DROP of
// its partition against DELETE from the plain table.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createTestDatabase } from "./lib/test-database.mjs";

const SECONDS = Number(process.env.PROBE_SECONDS ?? 6);
const database = await createTestDatabase("postgres");
const sql = new pg.Client({ connectionString: database.url });
await sql.connect();
const DAY = 86_400_000;
const today = Math.floor(Date.now() / DAY) * DAY;
const ts = (t) => `'${new Date(t).toISOString().replace("T", " ").replace("Z", "")}'`;

try {
  for (let d = -1; d <= 7; d++) {
    const from = today + d * DAY;
    const name = `UsageEvent_${new Date(from).toISOString().slice(0, 10).replaceAll("-", "")}`;
    await sql.query(`CREATE TABLE "${name}" PARTITION OF "UsageEvent" FOR VALUES FROM (${ts(from)}) TO (${ts(from + DAY)})`);
  }
  await sql.query(`CREATE TABLE "UsageEvent_plain" (LIKE "UsageEvent" INCLUDING ALL)`);

  const row = (t) => ({
    id: `usage_${randomBytes(12).toString("hex")}`,
    timestamp: new Date(t).toISOString(),
    businessId: "biz_probe",
    projectId: `proj_${randomBytes(2).toString("hex")}`,
    environment: "production",
    apiKey: `key_${randomBytes(4).toString("hex")}`,
    method: "GET",
    endpoint: "/gw/{slug}/weather",
    path: "/gw/probe/weather?city=Paris",
    statusCode: 200,
    latency: 1.7,
    requestSize: 120,
    responseSize: 512,
    computeTime: 0.4,
    cost: 0.001,
    billable: true,
    ip: "127.0.0.1",
    userAgent: "probe/1",
    productId: "prod_probe",
    subscriptionId: `sub_${randomBytes(2).toString("hex")}`,
    providerId: "biz_provider",
    quantity: 1,
    paidByCredits: false,
  });
  const columns = Object.keys(row(0));
  const insert = (table) =>
    `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) SELECT ${columns.map((c) => `"${c}"`).join(", ")} FROM json_populate_recordset(NULL::"${table}", $1::json)`;

  async function run(table, batch) {
    const text = insert(table);
    let rows = 0;
    const started = process.hrtime.bigint();
    const end = Date.now() + SECONDS * 1000;
    while (Date.now() < end) {
      const t = Date.now();
      await sql.query(text, [JSON.stringify(Array.from({ length: batch }, (_, i) => row(t + i)))]);
      rows += batch;
    }
    return rows / (Number(process.hrtime.bigint() - started) / 1e9);
  }

  console.log("| Rows a statement | Table | Rows/s (turn 1, turn 2) |\n|---|---|---|");
  for (const batch of [140, 500]) {
    const figures = { UsageEvent: [], UsageEvent_plain: [] };
    for (let turn = 0; turn < 2; turn++)
      for (const table of turn ? ["UsageEvent_plain", "UsageEvent"] : ["UsageEvent", "UsageEvent_plain"])
        figures[table].push(Math.round(await run(table, batch)));
    for (const [table, f] of Object.entries(figures))
      console.log(
        `| ${batch} | ${table === "UsageEvent" ? "partitioned by day" : "plain"} | ${f.map((n) => n.toLocaleString("en")).join(", ")} |`,
      );
  }

  // Retention: one day's rows, both ways. The day's rows go into the day's partition and into the plain table.
  const day = today + 2 * DAY;
  const name = `UsageEvent_${new Date(day).toISOString().slice(0, 10).replaceAll("-", "")}`;
  for (let i = 0; i < 100; i++) {
    const batch = JSON.stringify(Array.from({ length: 1000 }, (_, j) => row(day + (i * 1000 + j) * 800)));
    await sql.query(insert("UsageEvent"), [batch]);
    await sql.query(insert("UsageEvent_plain"), [batch]);
  }
  const lsn = async () => (await sql.query("SELECT pg_current_wal_lsn() AS l")).rows[0].l;
  const walSince = async (from) => Number((await sql.query("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS d", [from])).rows[0].d);
  let from = await lsn();
  let t0 = performance.now();
  const deleted = await sql.query(`DELETE FROM "UsageEvent_plain" WHERE "timestamp" >= ${ts(day)} AND "timestamp" < ${ts(day + DAY)}`);
  const deleteMs = performance.now() - t0;
  const deleteWal = await walSince(from);
  t0 = performance.now();
  await sql.query(`VACUUM "UsageEvent_plain"`);
  const vacuumMs = performance.now() - t0;
  from = await lsn();
  t0 = performance.now();
  await sql.query(`DROP TABLE "${name}"`);
  const dropMs = performance.now() - t0;
  const dropWal = await walSince(from);
  console.log(
    `\nOne day of ${deleted.rowCount.toLocaleString("en")} rows: DELETE ${Math.round(deleteMs)} ms and ${(deleteWal / 1e6).toFixed(1)} MB of WAL, then VACUUM ${Math.round(vacuumMs)} ms; DROP of its partition ${Math.round(dropMs)} ms and ${(dropWal / 1e3).toFixed(1)} KB of WAL.`,
  );
} finally {
  await sql.end();
  await database.drop();
}
