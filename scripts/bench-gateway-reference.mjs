// The same-work reference of `npm run bench:gateway`: the least node:http code that does, per call, the work the
// platform's gateway does (lib/server/gateway-front-door.ts, lib/gateway/proxy.ts), so the benchmark can say how far
// the gateway is from it, where the bare proxy (scripts/bare-proxy.mjs) says what the work itself costs. Per call:
//   the key's HMAC-SHA256 under KEY_HASH_SECRET and a lookup in an in-memory key cache → the product by its slug →
//   entitlement (the consumer's subscription to it, in memory, active) → the plan's fixed-window rate limit and the
//   monthly quota counter → the upstream target (the product's base path + what follows the slug) → the client's
//   headers minus hop-by-hop ones and its credentials, plus 11: X-Forwarded-For/-Host/-Proto, X-Platform-Consumer,
//   -Subscription, -Plan, -Environment, -Key-Id, -Request-Id, -Timestamp and -Signature (`v1,` + base64
//   HMAC-SHA256 of the signed content, as lib/gateway/gateway-secret.ts) → streamed to the upstream and back; on
//   the upstream's answer, the call rated and a journal line appended (fs.writeSync to an append-only file) before
//   the answer's first byte; when the answer is done, a usage event and a request-log row queued, sent in batches
//   (100 ms or 500 calls) to a worker thread that inserts them into SQLite (better-sqlite3, one transaction a batch).
// It has no Next, no database reads, no circuit breaker, no journal replay: what is left is the work itself.
// Environment: UPSTREAM_URL (the product's upstream, with its path prefix), REFERENCE_KEY (the consumer's key),
//   KEY_HASH_SECRET, REFERENCE_SLUG (the product's slug), REFERENCE_DIR (journal and SQLite file; a fresh temporary
//   directory unless set), PORT, HOST (127.0.0.1). GET /api/health answers 200 (the start-up probe).
import http from "node:http";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { closeSync, mkdtempSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
]);
const DROPPED = new Set(["authorization", "x-api-key"]);
const COLUMNS = {
  usage_event: [
    "id",
    "at",
    "consumer",
    "subscription",
    "product",
    "price",
    "key_id",
    "environment",
    "status",
    "request_bytes",
    "response_bytes",
    "latency_ms",
    "cost_nanos",
  ],
  request_log: [
    "id",
    "at",
    "consumer",
    "key_id",
    "environment",
    "method",
    "endpoint",
    "path",
    "status",
    "latency_ms",
    "ip",
    "user_agent",
    "request_headers",
  ],
};

if (!isMainThread) {
  // The writer thread: each batch is one transaction.
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(workerData.file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  const inserts = {};
  for (const [table, cols] of Object.entries(COLUMNS)) {
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (${cols.join(", ")})`);
    inserts[table] = db.prepare(`INSERT INTO ${table} VALUES (${cols.map(() => "?").join(", ")})`);
  }
  const write = db.transaction((batch) => {
    for (const row of batch.usage) inserts.usage_event.run(row);
    for (const row of batch.logs) inserts.request_log.run(row);
  });
  parentPort.on("message", (batch) => {
    if (batch === "close") {
      db.close();
      process.exit(0);
    }
    write(batch);
  });
} else {
  const upstream = new URL(process.env.UPSTREAM_URL);
  const prefix = upstream.pathname.replace(/\/+$/, "");
  const secret = Buffer.from(process.env.KEY_HASH_SECRET.trim(), "utf8");
  const dir = process.env.REFERENCE_DIR || mkdtempSync(path.join(tmpdir(), "bench-gateway-reference-"));
  const journal = openSync(path.join(dir, "usage.journal"), "a");
  const writer = new Worker(new URL(import.meta.url), { workerData: { file: path.join(dir, "reference.db") } });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, scheduling: "lifo" });
  const keyHash = (value) => createHmac("sha256", secret).update(value, "utf8").digest("hex");

  // What the platform reads from its database and keeps in memory: the key, the product, the subscription.
  const consumer = `biz_${randomBytes(8).toString("hex")}`;
  const keys = new Map([
    [keyHash(process.env.REFERENCE_KEY), { id: `key_${randomBytes(8).toString("hex")}`, consumer, environment: "sandbox" }],
  ]);
  const products = new Map([
    [process.env.REFERENCE_SLUG, { id: `prod_${randomBytes(8).toString("hex")}`, signingKey: randomBytes(32), timeoutMs: 30_000 }],
  ]);
  const subscriptions = new Map(); // consumer:product → subscription
  for (const p of products.values())
    subscriptions.set(`${consumer}:${p.id}`, {
      id: `sub_${randomBytes(8).toString("hex")}`,
      priceId: `price_${randomBytes(8).toString("hex")}`,
      status: "active",
      rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
      monthlyQuota: null,
      unitNanos: 1_000_000, // 0.001 USD a call
    });
  const windows = new Map(); // subscription → { window, count }
  const quotas = new Map(); // subscription → { month, count }

  let batch = { usage: [], logs: [] };
  let flushTimer = null;
  const flush = () => {
    clearTimeout(flushTimer);
    flushTimer = null;
    if (batch.usage.length) writer.postMessage(batch);
    batch = { usage: [], logs: [] };
  };

  const refuse = (res, status, code, message, requestId) => {
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", "x-request-id": requestId });
    res.end(
      JSON.stringify({ error: { type: status === 429 ? "rate_limit_error" : "authentication_error", code, message }, meta: { requestId } }),
    );
  };

  const PARTS = /^\/gw\/([^/?#]+)(\/[^?#]*)?(\?[^#]*)?/;
  const server = http.createServer((req, res) => {
    const started = performance.now();
    const at = Date.now();
    const requestId = `req_${randomUUID()}`;
    if (req.url === "/api/health") return res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
    const m = PARTS.exec(req.url);
    const product = m && products.get(m[1]);
    if (!product) return refuse(res, 404, "PRODUCT_NOT_FOUND", "No such product.", requestId);
    const auth = req.headers.authorization ?? "";
    const key = auth.startsWith("Bearer sk_") ? keys.get(keyHash(auth.slice(7))) : undefined;
    if (!key) return refuse(res, 401, "INVALID_API_KEY", "Invalid API key provided.", requestId);
    const sub = subscriptions.get(`${key.consumer}:${product.id}`);
    if (!sub || sub.status !== "active") return refuse(res, 403, "NOT_SUBSCRIBED", "No active subscription to this product.", requestId);
    const window = Math.floor(at / 1000 / sub.rateLimit.windowSeconds);
    let w = windows.get(sub.id);
    if (!w || w.window !== window) windows.set(sub.id, (w = { window, count: 0 }));
    const month = new Date(at).toISOString().slice(0, 7);
    let q = quotas.get(sub.id);
    if (!q || q.month !== month) quotas.set(sub.id, (q = { month, count: 0 }));
    if (w.count >= sub.rateLimit.limit) return refuse(res, 429, "RATE_LIMIT_EXCEEDED", "Too many requests.", requestId);
    if (sub.monthlyQuota !== null && q.count >= sub.monthlyQuota)
      return refuse(res, 429, "QUOTA_EXCEEDED", "Monthly quota used up.", requestId);
    w.count++;
    q.count++;

    const targetPath = prefix + (m[2] ?? "/") + (m[3] ?? "");
    const timestamp = Math.floor(at / 1000);
    const headers = {};
    for (const name in req.headers)
      if (!HOP_BY_HOP.has(name) && !DROPPED.has(name) && !name.startsWith("x-platform-")) headers[name] = req.headers[name];
    const signed = `${requestId}.${timestamp}.${req.method}.${targetPath}.${key.consumer}.${sub.id}.${key.environment}`;
    Object.assign(headers, {
      host: upstream.host,
      "x-forwarded-for": req.socket.remoteAddress ?? "",
      "x-forwarded-host": req.headers.host ?? "",
      "x-forwarded-proto": "http",
      "x-platform-consumer": key.consumer,
      "x-platform-subscription": sub.id,
      "x-platform-plan": sub.priceId,
      "x-platform-environment": key.environment,
      "x-platform-key-id": key.id,
      "x-platform-request-id": requestId,
      "x-platform-timestamp": String(timestamp),
      "x-platform-signature": `v1,${createHmac("sha256", product.signingKey).update(signed).digest("base64")}`,
    });
    const out = http.request(
      { agent, host: upstream.hostname, port: upstream.port, method: req.method, path: targetPath, headers, timeout: product.timeoutMs },
      (up) => {
        const responseBytes = Number(up.headers["content-length"] ?? 0);
        const costNanos = sub.unitNanos;
        // Written down before the answer's first byte goes out.
        writeSync(
          journal,
          `${JSON.stringify({ requestId, at, sub: sub.id, product: product.id, status: up.statusCode, bytes: responseBytes, costNanos })}\n`,
        );
        const answer = {};
        for (const name in up.headers) if (!HOP_BY_HOP.has(name)) answer[name] = up.headers[name];
        answer["x-request-id"] = requestId;
        answer["x-request-cost"] = `${(costNanos / 1e9).toFixed(3)} USD`;
        answer["ratelimit-policy"] = `${sub.rateLimit.limit};w=${sub.rateLimit.windowSeconds}`;
        answer["ratelimit"] =
          `limit=${sub.rateLimit.limit}, remaining=${sub.rateLimit.limit - w.count}, reset=${sub.rateLimit.windowSeconds - (timestamp % sub.rateLimit.windowSeconds)}`;
        res.writeHead(up.statusCode, answer);
        up.pipe(res);
        res.on("finish", () => {
          const latency = performance.now() - started;
          batch.usage.push([
            requestId,
            at,
            key.consumer,
            sub.id,
            product.id,
            sub.priceId,
            key.id,
            key.environment,
            up.statusCode,
            Number(req.headers["content-length"] ?? 0),
            responseBytes,
            latency,
            costNanos,
          ]);
          batch.logs.push([
            requestId,
            at,
            key.consumer,
            key.id,
            key.environment,
            req.method,
            `/gw/${m[1]}`,
            req.url,
            up.statusCode,
            latency,
            req.socket.remoteAddress ?? null,
            req.headers["user-agent"] ?? null,
            JSON.stringify({ ...req.headers, authorization: "[REDACTED]" }),
          ]);
          if (batch.usage.length >= 500) flush();
          else flushTimer ??= setTimeout(flush, 100);
        });
      },
    );
    out.on("timeout", () => out.destroy(new Error("upstream timeout")));
    out.on("error", () => {
      if (!res.headersSent) refuse(res, 502, "UPSTREAM_UNAVAILABLE", "The upstream failed.", requestId);
      else res.destroy();
    });
    res.on("close", () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT ?? 8082), process.env.HOST ?? "127.0.0.1");
  const stop = () => {
    server.close();
    server.closeIdleConnections();
    flush();
    closeSync(journal);
    writer.postMessage("close");
    writer.on("exit", () => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
