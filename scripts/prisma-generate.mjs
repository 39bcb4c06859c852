// Writes the PostgreSQL variant of prisma/schema.prisma and generates both clients (no engine download:
// engineType "client" plus driver adapters).
import { readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";

const source = readFileSync("prisma/schema.prisma", "utf8");
const pg = source
  .replace(
    /^\/\/ Source schema[\s\S]*?edit this one only\.\n/m,
    "// GENERATED from prisma/schema.prisma by scripts/prisma-generate.mjs. Do not edit.\n",
  )
  .replace('provider = "sqlite"', 'provider = "postgresql"')
  .replace('output     = "../generated/prisma-sqlite"', 'output     = "../../generated/prisma-pg"')
  .replace('url      = "file:../data/platform.db"', 'url      = "postgresql://postgres@127.0.0.1:5432/platform"');
if (!pg.includes('"postgresql"') || !pg.includes("prisma-pg")) throw new Error("could not derive the PostgreSQL schema");
mkdirSync("prisma/postgres", { recursive: true });
const target = "prisma/postgres/schema.prisma";
if (!existsSync(target) || readFileSync(target, "utf8") !== pg) writeFileSync(target, pg);

const prisma = "node_modules/.bin/prisma";
// Each config names its schema and sets engine "js", so the CLI never reaches for a native engine.
for (const config of ["prisma.sqlite.config.ts", "prisma.postgres.config.ts"]) {
  execFileSync(prisma, ["generate", "--config", config], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}
console.log("prisma: generated clients for sqlite and postgresql");
