import { readdirSync } from "node:fs";
import path from "node:path";
import { db, databaseProvider } from "@/lib/db/client";
import { redis } from "@/lib/redis/client";

// GET /readyz, for a load balancer: may this process take traffic? Each check answers within a second or counts as
// failed; the answer lists every check so an operator sees which one is down. /healthz only says the process is up.

export interface ReadinessCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

const withinASecond = <T>(work: Promise<T>): Promise<T> =>
  Promise.race([work, new Promise<T>((_, reject) => setTimeout(() => reject(new Error("no answer within 1 s")), 1000).unref())]);

/** Names of the migrations this checkout carries for the database in use. */
function expectedMigrations(): string[] {
  const dir = databaseProvider() === "postgresql" ? "prisma/postgres/migrations" : "prisma/migrations";
  try {
    return readdirSync(path.resolve(dir), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

async function databaseCheck(): Promise<ReadinessCheck[]> {
  try {
    const rows = await withinASecond(
      db.$queryRawUnsafe<{ migration_name: string }[]>(
        "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
      ),
    );
    const applied = new Set(rows.map((r) => r.migration_name));
    const missing = expectedMigrations().filter((m) => !applied.has(m));
    return [
      { name: "database", ok: true },
      { name: "migrations", ok: missing.length === 0, ...(missing.length ? { detail: `not applied: ${missing.join(", ")}` } : {}) },
    ];
  } catch (e) {
    return [
      { name: "database", ok: false, detail: (e as Error).message },
      { name: "migrations", ok: false, detail: "the database did not answer" },
    ];
  }
}

async function redisCheck(): Promise<ReadinessCheck[]> {
  const client = redis();
  if (!client) return [];
  try {
    await withinASecond(client.ping());
    return [{ name: "redis", ok: true }];
  } catch (e) {
    return [{ name: "redis", ok: false, detail: (e as Error).message }];
  }
}

/** Every check, database and migrations, Redis when configured, and what the caller adds (Next's reachability). */
export async function readiness(
  extra: () => Promise<ReadinessCheck[]> = async () => [],
): Promise<{ ok: boolean; checks: ReadinessCheck[] }> {
  const checks = (await Promise.all([databaseCheck(), redisCheck(), extra()])).flat();
  return { ok: checks.every((c) => c.ok), checks };
}
