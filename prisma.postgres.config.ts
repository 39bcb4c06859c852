// Prisma CLI config for PostgreSQL (used with --config by scripts/db-*.mjs when DATABASE_URL is postgres://).
import path from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/platform";

// Workaround 1 (prisma/orm#27403, 6.19.x): the wasm schema engine introspects pg_catalog,
// whose `name`/`"char"`/... columns @prisma/adapter-pg can't map ("Column type 'name' could
// not be deserialized from the database"). Report them as text (this CLI process only).
const AS_TEXT: Record<number, number> = { 18: 25, 19: 25, 22: 25, 24: 25, 30: 25, 194: 25, 2205: 25, 1002: 1009, 1003: 1009 };
const origAddFields = (pg as any).Result.prototype.addFields;
(pg as any).Result.prototype.addFields = function (fields: { dataTypeID: number }[]) {
  for (const f of fields) if (AS_TEXT[f.dataTypeID]) f.dataTypeID = AS_TEXT[f.dataTypeID];
  return origAddFields.call(this, fields);
};

function pgConfig(u: URL, database = u.pathname.slice(1)) {
  return {
    host: u.hostname,
    port: Number(u.port || 5432),
    database,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    max: Number(u.searchParams.get("connection_limit") ?? 10),
  };
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "postgres", "schema.prisma"),
  migrations: { path: path.join("prisma", "postgres", "migrations") },
  async adapter() {
    const u = new URL(url);
    const factory = new PrismaPg(pgConfig(u));
    // Workaround 2: built-in connectToShadowDb() (a) ignores the db name when given a
    // connectionString and (b) drops the temp DB before closing its pool ("is being accessed
    // by other users"), leaking prisma_migrate_shadow_db_* databases. Own implementation:
    factory.connectToShadowDb = async () => {
      const name = `prisma_shadow_${randomUUID().replaceAll("-", "")}`;
      const admin = new pg.Client(pgConfig(u));
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      const shadow = await new PrismaPg(pgConfig(u, name)).connect();
      const dispose = shadow.dispose.bind(shadow);
      shadow.dispose = async () => {
        await dispose();
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      };
      return shadow;
    };
    return factory;
  },
});
