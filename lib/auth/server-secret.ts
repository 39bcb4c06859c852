import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir } from "@/lib/cluster/node-identity";

// The key-hashing secret. KEY_HASH_SECRET wins; otherwise one is made on first use and kept in the
// node's git-ignored data folder (DATA_DIR, default data/), so the server and the operator CLI on one machine hash keys
// alike. Several nodes sharing one PostgreSQL database must all be given the same KEY_HASH_SECRET: a node whose secret
// differs from a live node's refuses to start (scripts/lib/cluster-node.mjs).

let cached: Buffer | undefined;

export function serverSecret(): Buffer {
  if (cached) return cached;
  const fromEnv = process.env.KEY_HASH_SECRET?.trim();
  if (fromEnv) return (cached = Buffer.from(fromEnv, "utf8"));
  const file = path.resolve(process.env.KEY_HASH_SECRET_FILE ?? path.join(dataDir(), "key-hash.secret"));
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e; // another process made it first
    }
  }
  return (cached = Buffer.from(readFileSync(file, "utf8").trim(), "utf8"));
}
