// A node's checks before it joins others on one database (scripts/lib/cluster-node.mjs), and the settings that say how
// it reaches PostgreSQL and Redis (lib/db/database-url.ts, lib/redis/client.ts, scripts/lib/redis-settings.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { behindPgbouncer, databasePoolSize, databaseUrl, plainPostgresUrl } from "@/lib/db/database-url";
import { sentinelOptions } from "@/lib/redis/client";
import { dataDir, nodeId } from "@/lib/cluster/node-identity";
// @ts-expect-error: plain ESM script without types
import { redisSettingsError } from "../../scripts/lib/redis-settings.mjs";
// @ts-expect-error: plain ESM script without types
import { refusal, secretCheck } from "../../scripts/lib/cluster-node.mjs";
// @ts-expect-error: plain ESM script without types
import { databaseSettingsError } from "../../scripts/lib/database-url.mjs";

const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;
const me = { id: "b:3002", host: "b", dataDir: "/srv/b", secretCheck: secretCheck("s3cret") };
const peer = (over: Record<string, string> = {}) => ({
  id: "a:3001",
  host: "a",
  dataDir: "/srv/a",
  secretCheck: secretCheck("s3cret"),
  ...over,
});

test("SQLite is one machine's: a node with another data folder or host beside a live one is refused in one line", () => {
  const why = refusal(me, [peer()], { sqlite: true, redis: false });
  assert.match(why!, /^SQLite is one machine's: node a:3001 \(host a, data folder \/srv\/a\) already serves this database\. .*PostgreSQL/);
  assert.doesNotMatch(why!, /\n/);
  // Several `npm start` on one data folder of one machine are one node's processes, as before.
  assert.equal(refusal(me, [peer({ host: "b", dataDir: "/srv/b" })], { sqlite: true, redis: false }), null);
  assert.equal(refusal(me, [], { sqlite: true, redis: false }), null);
});

test("PostgreSQL: nodes must share KEY_HASH_SECRET, and several need Redis", () => {
  assert.equal(refusal(me, [peer()], { sqlite: false, redis: true }), null);
  assert.match(
    refusal(me, [peer({ secretCheck: secretCheck("other") })], { sqlite: false, redis: true })!,
    /^KEY_HASH_SECRET differs from node a:3001/,
  );
  assert.match(refusal(me, [peer()], { sqlite: false, redis: false })!, /^Several nodes need REDIS_URL \(or REDIS_SENTINELS\)/);
  assert.equal(refusal(me, [], { sqlite: false, redis: false }), null, "one node alone needs no Redis");
  // The fingerprint tells secrets apart and is not the secret.
  assert.notEqual(secretCheck("a"), secretCheck("b"));
  assert.notEqual(secretCheck("a", "x"), secretCheck("a", "y"));
  assert.equal(secretCheck("a"), secretCheck("a"));
  assert.ok(!secretCheck("s3cret").includes("s3cret"));
});

test("DATA_DIR and NODE_ID: defaults, and the embedded database in the node's folder", () => {
  assert.equal(dataDir(env({})), `${process.cwd()}/data`);
  assert.equal(dataDir(env({ DATA_DIR: "/srv/node1" })), "/srv/node1");
  assert.match(nodeId(env({ PORT: "3001" })), /:3001$/);
  assert.equal(nodeId(env({ NODE_ID: "node-7", PORT: "3001" })), "node-7");
  assert.equal(databaseUrl(env({})), "file:./data/platform.db");
  assert.equal(databaseUrl(env({ DATA_DIR: "/srv/node1" })), "file:/srv/node1/platform.db");
  assert.equal(databaseUrl(env({ DATA_DIR: "/srv/node1", DATABASE_URL: "postgresql://h/db" })), "postgresql://h/db");
});

test("PostgreSQL's pool per process and pgbouncer's transaction pooling", () => {
  const url = "postgresql://postgres@127.0.0.1:6432/platform?pgbouncer=true&connection_limit=4";
  assert.equal(behindPgbouncer(url), true);
  assert.equal(behindPgbouncer("postgresql://postgres@127.0.0.1:5432/platform"), false);
  assert.equal(behindPgbouncer("file:./data/platform.db"), false);
  assert.equal(databasePoolSize(url, env({})), 4);
  assert.equal(databasePoolSize(url, env({ DATABASE_POOL_SIZE: "12" })), 12);
  assert.equal(databasePoolSize("postgresql://h/db", env({})), 10);
  assert.equal(databasePoolSize("postgresql://h/db", env({ DATABASE_POOL_SIZE: "zero" })), 10);
  assert.equal(plainPostgresUrl(url), "postgresql://postgres@127.0.0.1:6432/platform");
});

test("Sentinel: REDIS_SENTINELS parsed, a malformed entry refused in one line", () => {
  assert.equal(sentinelOptions(env({})), null);
  assert.deepEqual(sentinelOptions(env({ REDIS_SENTINELS: "127.0.0.1:26379, 10.0.0.2:26380" })), {
    sentinels: [
      { host: "127.0.0.1", port: 26379 },
      { host: "10.0.0.2", port: 26380 },
    ],
    name: "mymaster",
  });
  assert.equal(sentinelOptions(env({ REDIS_SENTINELS: "[::1]:26379", REDIS_SENTINEL_NAME: "platform" }))!.name, "platform");
  assert.equal(redisSettingsError({ REDIS_SENTINELS: "127.0.0.1:26379,[::1]:26380" }), null);
  assert.match(
    redisSettingsError({ REDIS_SENTINELS: "127.0.0.1:26379,sentinel-two" })!,
    /^REDIS_SENTINELS must list host:port pairs .*"sentinel-two"\.$/,
  );
  assert.throws(() => sentinelOptions(env({ REDIS_SENTINELS: "nope" })), /REDIS_SENTINELS must list host:port/);
});

test("DATABASE_REPLICA_URL needs PostgreSQL on both sides, DATABASE_POOL_SIZE a count: refused in one line", () => {
  const pgUrl = "postgresql://postgres@127.0.0.1:5432/platform";
  assert.equal(databaseSettingsError({ DATABASE_URL: pgUrl, DATABASE_REPLICA_URL: "postgresql://postgres@replica:5432/platform" }), null);
  assert.match(
    databaseSettingsError({ DATABASE_REPLICA_URL: "postgresql://replica/platform" })!,
    /^DATABASE_REPLICA_URL needs DATABASE_URL on PostgreSQL/,
  );
  assert.match(
    databaseSettingsError({ DATABASE_URL: pgUrl, DATABASE_REPLICA_URL: "mysql://replica" })!,
    /^DATABASE_REPLICA_URL must be a postgresql:\/\/ URL/,
  );
  assert.match(databaseSettingsError({ DATABASE_POOL_SIZE: "0" })!, /^DATABASE_POOL_SIZE must be a whole number/);
  assert.equal(databaseSettingsError({ DATABASE_POOL_SIZE: "8" }), null);
});
