import { hostname } from "node:os";
import path from "node:path";

// Which node this process belongs to, and where the node keeps what is its own. A node is one `npm start` (its
// supervisor, data-plane workers and Next); several nodes share PostgreSQL and Redis behind a load balancer
// (docs/deploy.md). What stays per node lives under DATA_DIR: the usage journal, the local bus between the node's
// processes, a generated KEY_HASH_SECRET, and the SQLite file when that is the database. No imports beyond node's
// own: the lowest modules (the database URL, the local bus) ask it. scripts/lib/node-identity.mjs is its twin for
// the scripts that run before anything is installed.

/** The node's data folder, absolute: DATA_DIR, default `data` in the working directory. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.DATA_DIR?.trim() || "data");
}

/** This node's name in the cluster: NODE_ID, default host name and port (two nodes on one machine differ by port). */
export function nodeId(env: NodeJS.ProcessEnv = process.env): string {
  return env.NODE_ID?.trim() || `${hostname()}:${env.PORT?.trim() || "3000"}`;
}
