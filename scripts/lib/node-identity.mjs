import { hostname } from "node:os";
import path from "node:path";

// lib/cluster/node-identity.ts's twin for the scripts that run before anything is installed (start, migrate):
// DATA_DIR (default `data`) is the node's own folder, NODE_ID (default host name and port) its name.

export const dataDir = (env = process.env) => path.resolve(env.DATA_DIR?.trim() || "data");

export const nodeId = (env = process.env) => env.NODE_ID?.trim() || `${hostname()}:${env.PORT?.trim() || "3000"}`;
