// The reference server of `npm run bench:api`: the least a server can do to answer an authenticated
// GET /v1/products/{id} the way the platform does, on the same SQLite file, so the benchmark can say how far the
// real server is from it. Plain node:http + better-sqlite3, per request:
//   the key's HMAC-SHA256 under KEY_HASH_SECRET (lib/keys/key-format.ts) → the key row (joined to its business
//   for the plan) → a fixed-window per-minute counter in memory → scope check → the product row (the same SQL as
//   lib/products/find-product-row.ts) → the wire shape and envelope → a RequestLog row (headers redacted, response
//   body kept), queued and written in batches (one transaction per 500 ms or 500 rows).
// It does not keep the platform's key cache, usage events, rollups or billing: those are the platform's own costs.
// Environment: DATABASE_URL (file:...), KEY_HASH_SECRET, PORT, HOST. GET /api/health answers 200 (start-up probe).
import { createServer } from "node:http";
import { createHmac, randomBytes } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";

const db = new Database(path.resolve(process.env.DATABASE_URL.slice("file:".length)));
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.pragma("busy_timeout = 0"); // a busy database is retried later, never waited on synchronously
const secret = Buffer.from(process.env.KEY_HASH_SECRET.trim(), "utf8");
const keyStmt = db.prepare(`SELECT k."id", k."businessId", k."projectId", k."environment", k."scopes", k."rateLimit",
  k."revokedAt", k."expiresAt", b."plan" FROM "ApiKey" k JOIN "Business" b ON b."id" = k."businessId" WHERE k."keyHash" = ?`);
const productStmt = db.prepare(`SELECT p."id", p."businessId", p."environment", p."name", p."type", p."description", p."isActive",
  p."industries", p."productCategories", p."interfaces", p."searchText", p."visibility", p."slug", p."api", p."publishedAt", p."createdAt", p."updatedAt",
  b."name" AS "businessName" FROM "Product" p JOIN "Business" b ON b."id" = p."businessId" WHERE p."id" = ? AND p."businessId" = ? AND p."environment" = ?`);
const LOG_COLUMNS = [
  "id",
  "timestamp",
  "businessId",
  "projectId",
  "environment",
  "apiKey",
  "method",
  "endpoint",
  "path",
  "statusCode",
  "latency",
  "ip",
  "userAgent",
  "requestHeaders",
  "requestBody",
  "responseHeaders",
  "responseBody",
];
const logStmt = db.prepare(
  `INSERT INTO "RequestLog" (${LOG_COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES (${LOG_COLUMNS.map(() => "?").join(", ")})`,
);
const PER_MINUTE = { free: 10, starter: 100, pro: 1_000, enterprise: 10_000 }; // lib/limits/plans.ts
const KEY_SHAPE = /^sk_(test|live)_[A-Za-z0-9_-]{43}$/;
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "x-api-key"]);
const sqliteDate = (d) => d.toISOString().replace("Z", "+00:00"); // Prisma's SQLite DateTime storage
const json = (v) => (v === null ? null : JSON.parse(v));

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
function requestId(ms) {
  // lib/ids.ts's shape: req_ + 10 chars of time + 16 random, Crockford base32
  let time = "";
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  let rnd = "";
  for (const b of randomBytes(16)) rnd += CROCKFORD[b & 31];
  return `req_${time}${rnd}`;
}

const windows = new Map(); // keyId → { window, count }: a fixed one-minute window per key
let queue = [];
let flushTimer = null;
function flush() {
  flushTimer = null;
  const rows = queue;
  queue = [];
  try {
    db.transaction(() => {
      for (const r of rows) logStmt.run(r);
    }).immediate();
  } catch (e) {
    if (e.code !== "SQLITE_BUSY" && e.code !== "SQLITE_LOCKED") throw e;
    queue = rows.concat(queue); // the other server holds the write lock: try again at the next tick
    flushTimer ??= setTimeout(flush, 50);
  }
}

function answer(req, res, started, status, body, headers, key, endpoint) {
  const text = JSON.stringify(body);
  res.writeHead(status, headers).end(text);
  if (!key) return;
  const reqHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) reqHeaders[k] = SECRET_HEADERS.has(k) ? "[REDACTED]" : v;
  queue.push([
    headers["X-Request-Id"],
    sqliteDate(new Date(started.ms)),
    key.businessId,
    key.projectId,
    key.environment,
    key.id,
    req.method,
    endpoint,
    req.url,
    status,
    Math.round((performance.now() - started.t) * 100) / 100,
    req.socket.remoteAddress ?? null,
    req.headers["user-agent"] ?? null,
    JSON.stringify(reqHeaders),
    null,
    JSON.stringify(headers),
    text,
  ]);
  if (queue.length >= 500) flush();
  else flushTimer ??= setTimeout(flush, 500);
}

function handle(req, res) {
  const started = { t: performance.now(), ms: Date.now() };
  const id = requestId(started.ms);
  const meta = { timestamp: new Date(started.ms).toISOString(), requestId: id };
  const headers = { "X-Request-Id": id, "Cache-Control": "no-store", "Content-Type": "application/json" };
  const fail = (status, type, code, message, key, endpoint) =>
    answer(req, res, started, status, { error: { type, code, message }, meta }, headers, key, endpoint);
  if (req.url === "/api/health") return answer(req, res, started, 200, { status: "ok" }, headers);
  const m = /^\/v1\/products\/(prod_[0-9A-HJKMNP-TV-Z]{26})$/.exec(req.url);
  if (!m) return fail(404, "not_found_error", "ROUTE_NOT_FOUND", "No such route.");
  const endpoint = "/v1/products/{id}";
  const auth = req.headers.authorization ?? "";
  const value = auth.startsWith("Bearer ") ? auth.slice(7) : "";
  if (value.length !== 51 || !KEY_SHAPE.test(value))
    return fail(401, "authentication_error", "INVALID_API_KEY", "Invalid API key provided.");
  const key = keyStmt.get(createHmac("sha256", secret).update(value, "utf8").digest("hex"));
  const t = started.ms;
  if (!key || (key.revokedAt && Date.parse(key.revokedAt) <= t) || (key.expiresAt && Date.parse(key.expiresAt) <= t)) {
    return fail(401, "authentication_error", "INVALID_API_KEY", "Invalid API key provided.");
  }
  const limit = Math.min(PER_MINUTE[key.plan] ?? PER_MINUTE.free, key.rateLimit ?? Infinity);
  const window = Math.floor(t / 60_000);
  let w = windows.get(key.id);
  if (!w || w.window !== window) windows.set(key.id, (w = { window, count: 0 }));
  w.count++;
  Object.assign(headers, {
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": String(Math.max(0, limit - w.count)),
    "X-RateLimit-Reset": String((window + 1) * 60),
  });
  if (w.count > limit) return fail(429, "rate_limit_error", "RATE_LIMIT_EXCEEDED", "Too many requests.", key, endpoint);
  const scopes = JSON.parse(key.scopes);
  if (!scopes.some((s) => s === "*" || s === "products:read" || s === "products:*")) {
    return fail(403, "permission_error", "INSUFFICIENT_SCOPE", "This API key lacks the 'products:read' scope.", key, endpoint);
  }
  const p = productStmt.get(m[1], key.businessId, key.environment);
  if (!p) return fail(404, "not_found_error", "RESOURCE_NOT_FOUND", `No product with id '${m[1]}'.`, key, endpoint);
  const data = {
    // lib/products/serialize.ts's shape
    id: p.id,
    name: p.name,
    type: p.type,
    business: p.businessId,
    description: p.description,
    isActive: p.isActive === 1,
    environment: p.environment,
    industries: json(p.industries) ?? [],
    productCategories: json(p.productCategories) ?? [],
    interfaces: json(p.interfaces) ?? {},
    visibility: p.visibility,
    slug: p.slug,
    // The stored block as it is (the bench's products have none; the platform also lists secret header names).
    api: json(p.api),
    publishedAt: p.publishedAt ? new Date(p.publishedAt).toISOString() : null,
    createdAt: new Date(p.createdAt).toISOString(),
    updatedAt: new Date(p.updatedAt).toISOString(),
  };
  answer(req, res, started, 200, { data, meta }, headers, key, endpoint);
}

const server = createServer(handle);
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 3100), process.env.HOST ?? "127.0.0.1");
process.on("SIGTERM", () => {
  server.close(() => {
    clearTimeout(flushTimer);
    if (queue.length) flush();
    db.close();
    process.exit(0);
  });
  server.closeIdleConnections();
});
