import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

// lib/cluster/node-identity.ts's twin for the scripts that run before anything is installed (start, migrate):
// DATA_DIR (default `data`) is the node's own folder, NODE_ID (default host name and port) its name.

export const dataDir = (env = process.env) => path.resolve(env.DATA_DIR?.trim() || "data");

export const nodeId = (env = process.env) => env.NODE_ID?.trim() || `${hostname()}:${env.PORT?.trim() || "3000"}`;

/** A secret kept in a file of the node's (made on first use, readable by its owner only; the first of two processes
 * making it at once wins). */
export function secretFromFile(file) {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
    }
  }
  return readFileSync(file, "utf8").trim();
}

/** The portal's session secret: NEXTAUTH_SECRET, else one made into the node's data folder. */
export const nextAuthSecret = (env = process.env) =>
  env.NEXTAUTH_SECRET?.trim() || secretFromFile(path.join(dataDir(env), "nextauth.secret"));

/** The key-hashing secret as lib/auth/server-secret.ts reads it: KEY_HASH_SECRET, else a file in the data folder. */
export const keyHashSecret = (env = process.env) =>
  env.KEY_HASH_SECRET?.trim() || secretFromFile(path.resolve(env.KEY_HASH_SECRET_FILE ?? path.join(dataDir(env), "key-hash.secret")));
