// Prisma CLI config for the embedded SQLite database (the default).
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

const url = process.env.DATABASE_URL ?? "file:./data/platform.db";

// Workaround (Prisma 6.19.x, wasm schema engine, sqlite): when replaying migrations
// into the shadow DB the engine sends each whole migration.sql through executeRaw(),
// which better-sqlite3 rejects ("contains more than one statement") -> P3006.
// Route arg-less executeRaw on the *shadow* connection through executeScript (db.exec).
function withScriptExec<T extends { executeRaw: (...args: any[]) => any; executeScript: (...args: any[]) => any }>(a: T): T {
  const orig = a.executeRaw.bind(a);
  a.executeRaw = async (q: { sql: string; args: unknown[] }) => {
    if (q.args.length === 0) {
      await a.executeScript(q.sql);
      return 0;
    }
    return orig(q);
  };
  return a;
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    const f = new PrismaBetterSQLite3({ url }, { shadowDatabaseUrl: ":memory:" });
    const connectShadow = f.connectToShadowDb.bind(f);
    f.connectToShadowDb = async () => withScriptExec(await connectShadow());
    return f;
  },
});
