// Secrets at rest: a full API key or OAuth client secret exists only in the response that creates it. Replays of
// an idempotent creation answer it again (as Stripe does), from a copy sealed under the server secret, so no table
// of the database holds the secret's bytes; and credentials sent anywhere in a request (User-Agent, any header,
// a JSON body, raw or percent-encoded) never reach the request log or usage events.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { seedBusiness } from "../helpers/api";
import { db, settledCount } from "../helpers/usage-db";

const isPostgres = (process.env.DATABASE_URL ?? "").startsWith("postgres");
const pct = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`).join("");

/** Every table (and column) of the database whose text holds one of the needles. */
async function placesHolding(needles: string[]): Promise<string[]> {
  const found: string[] = [];
  if (isPostgres) {
    const tables = await db.$queryRawUnsafe<{ name: string }[]>(
      "SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
    );
    for (const { name } of tables) {
      for (const needle of needles) {
        const [{ n }] = await db.$queryRawUnsafe<{ n: bigint }[]>(
          `SELECT count(*) AS n FROM "${name}" t WHERE strpos(t::text, $1) > 0`,
          needle,
        );
        if (Number(n) > 0) found.push(name);
      }
    }
    return found;
  }
  const tables = await db.$queryRawUnsafe<{ name: string }[]>("SELECT name FROM sqlite_master WHERE type = 'table'");
  for (const { name } of tables) {
    const columns = await db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM pragma_table_info('${name}')`);
    for (const c of columns) {
      for (const needle of needles) {
        const [{ n }] = await db.$queryRawUnsafe<{ n: bigint }[]>(
          `SELECT count(*) AS n FROM "${name}" WHERE instr(CAST("${c.name}" AS TEXT), ?) > 0`,
          needle,
        );
        if (Number(n) > 0) found.push(`${name}.${c.name}`);
      }
    }
  }
  return found;
}

/** SQLite: whether the database file or its write-ahead log holds the needle's bytes anywhere (free pages too). */
function fileHolds(needle: string): boolean {
  const file = path.resolve((process.env.DATABASE_URL ?? "").slice("file:".length));
  return ["", "-wal"].some((s) => existsSync(file + s) && readFileSync(file + s).includes(Buffer.from(needle)));
}

test("a key and an OAuth client made with an Idempotency-Key: the replay answers the same secret, and no table holds it", async () => {
  const biz = await seedBusiness();
  const keyHeaders = { "Idempotency-Key": `secret-key-${randomBytes(6).toString("hex")}` };
  const made = await biz.test.post("/v1/api-keys", { name: "Sealed", scopes: ["products:read"] }, keyHeaders);
  assert.equal(made.status, 201, made.text);
  const key: string = made.body.data.key;
  assert.match(key, /^sk_test_[A-Za-z0-9_-]{40,}$/);
  const keyReplay = await biz.test.post("/v1/api-keys", { name: "Sealed", scopes: ["products:read"] }, keyHeaders);
  assert.equal(keyReplay.status, 200, keyReplay.text);
  assert.equal(keyReplay.headers.get("idempotent-replayed"), "true");
  assert.equal(keyReplay.body.data.id, made.body.data.id);
  assert.equal(keyReplay.body.data.key, key, "the replay answers the key, as the first response did");

  const clientHeaders = { "Idempotency-Key": `secret-client-${randomBytes(6).toString("hex")}` };
  const body = { name: "Sealed app", redirectUris: ["http://127.0.0.1:8080/cb"], scopes: ["products:read"] };
  const registered = await biz.test.post("/v1/oauth-clients", body, clientHeaders);
  assert.equal(registered.status, 201, registered.text);
  const secret: string = registered.body.data.clientSecret;
  assert.match(secret, /^ocs_[A-Za-z0-9_-]{40,}$/);
  const clientReplay = await biz.test.post("/v1/oauth-clients", body, clientHeaders);
  assert.equal(clientReplay.status, 200, clientReplay.text);
  assert.equal(clientReplay.body.data.clientSecret, secret);

  // The request logs of all four requests are written too (they carry the bodies, redacted).
  assert.equal(await settledCount(() => db.requestLog.count({ where: { projectId: biz.projectId } }), 4), 4);
  // The secret part, without its well-known prefix.
  const needles = [key.slice("sk_test_".length), secret.slice("ocs_".length)];
  assert.deepEqual(await placesHolding(needles), [], "a table holds a full secret");
  if (!isPostgres) {
    await db.$queryRawUnsafe("PRAGMA wal_checkpoint(PASSIVE)");
    for (const n of needles) assert.equal(fileHolds(n), false, `the database file holds ${n.slice(0, 6)}…`);
  }
});

test("a key in the User-Agent, another header or a JSON body (raw or percent-encoded) never reaches the request log", async () => {
  const biz = await seedBusiness();
  const leaked = `sk_live_${randomBytes(32).toString("base64url")}`;
  const token = `oat_${randomBytes(32).toString("base64url")}`;
  const headers = { "User-Agent": `leaky-cli/2.0 (${leaked})`, "X-Debug": `token=${pct(token)}` };
  const listed = await biz.test.get("/v1/products?limit=1", headers);
  assert.equal(listed.status, 200, listed.text);
  const made = await biz.test.post(
    "/v1/products",
    { name: "Leak", type: "API", description: `see ${pct(leaked)} and ${leaked.replace(/_/g, "%5F")} and ${token}` },
    headers,
  );
  assert.equal(made.status, 201, made.text);

  assert.equal(await settledCount(() => db.requestLog.count({ where: { projectId: biz.projectId } }), 2), 2);
  const logs = await db.requestLog.findMany({ where: { projectId: biz.projectId } });
  const usage = await db.usageEvent.findMany({ where: { projectId: biz.projectId } });
  assert.equal(usage.length, 2);
  const stored = JSON.stringify([logs, usage]);
  for (const secret of [leaked.slice(8), token.slice(4)]) {
    assert.ok(!stored.includes(secret.slice(0, 20)), `a credential reached the log: ${stored.slice(0, 2000)}`);
    assert.ok(!stored.includes(pct(secret).slice(0, 60)), `a percent-encoded credential reached the log: ${stored.slice(0, 2000)}`);
  }
  assert.ok(
    logs.every((l) => l.userAgent?.startsWith("leaky-cli/2.0 (")),
    "the rest of the User-Agent is kept",
  );
  assert.ok(usage.every((u) => u.userAgent?.startsWith("leaky-cli/2.0 (")));
});
