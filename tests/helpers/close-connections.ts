// A test file that calls the platform's code in-process (seeding a business, reading a row, a key rotation, a cache
// invalidation) opens what that code opens: on PostgreSQL, Prisma's and lib/db/pg-direct.ts's pools, whose idle
// connections keep a process alive for 10 s (pg's idleTimeoutMillis), which made every such file take 10 s more and
// the PostgreSQL run two and a half times the SQLite one; with REDIS_URL set, a Redis connection, which would keep it
// alive for good. All are closed when the file's tests are done. Imported by the helpers that reach the database.
import { after } from "node:test";
import { db } from "@/lib/db/client";
import { closeDirectPostgres } from "@/lib/db/pg-direct";
import { closeRedis } from "@/lib/redis/client";

after(async () => {
  await closeRedis();
  await db.$disconnect();
  await closeDirectPostgres();
});
