import { test, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net, { type AddressInfo } from "node:net";

// The gateway's upstream calls through undici's pool (lib/gateway/upstream-pool.ts, lib/gateway/proxy.ts), against
// real loopback servers: what node:http's client did for the gateway and undici does not do by itself.

process.env.ALLOW_PRIVATE_URLS = "true";
const { headersOf, closeUpstreamPools } = await import("@/lib/gateway/upstream-pool");
const { proxyRequest, requestUpstream, upstreamTarget } = await import("@/lib/gateway/proxy");
after(closeUpstreamPools);

type Context = { after(fn: () => unknown): void };

/** The server listening on loopback; closed, with whatever connections it still holds, when the test ends. */
async function listen(t: Context, server: http.Server | net.Server): Promise<number> {
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

/** A GET made by the gateway itself (requestUpstream) to a loopback port. */
const getFrom = (port: number, timeoutMs: number) =>
  requestUpstream({
    target: upstreamTarget(new URL(`http://127.0.0.1:${port}`), "/"),
    method: "GET",
    headers: { host: `127.0.0.1:${port}` },
    timeoutMs,
    body: null,
    maxBodyBytes: 1024,
  });

test("an answer's raw head reads as node:http's headers: names in lower case, Set-Cookie a list, repeats joined or the first kept", () => {
  const raw = [
    ["Content-Type", "application/json"],
    ["content-type", "text/plain"],
    ["Set-Cookie", "a=1"],
    ["Vary", "Accept"],
    ["set-cookie", "b=2"],
    ["vary", "Origin"],
    ["X-Name", "caf\u00e9"],
    ["Constructor", "x"],
  ].flatMap(([n, v]) => [Buffer.from(n, "latin1"), Buffer.from(v, "latin1")]);
  assert.deepEqual(headersOf(raw), {
    "content-type": "application/json",
    "set-cookie": ["a=1", "b=2"],
    vary: "Accept, Origin",
    "x-name": "caf\u00e9",
    constructor: "x",
  });
});

test("a gateway call whose body timeout fires mid-answer keeps what came and says it is incomplete", async (t) => {
  // The head and a first part of the body, then nothing more.
  const port = await listen(
    t,
    http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first part");
    }),
  );
  const result = await getFrom(port, 300);
  assert.equal(result.status, 200);
  assert.equal(result.fault, null);
  assert.equal(result.body.toString(), "first part");
  assert.equal(result.complete, false);
});

test("an upstream that never answers is a timeout fault; one that refuses the connection is unavailable", async (t) => {
  const silent = await listen(
    t,
    net.createServer(() => {}),
  );
  const timedOut = await getFrom(silent, 200);
  assert.equal(timedOut.fault, "UPSTREAM_TIMEOUT");
  assert.equal(timedOut.status, null);

  const closed = net.createServer();
  const closedPort = await listen(t, closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const refused = await getFrom(closedPort, 2000);
  assert.equal(refused.fault, "UPSTREAM_UNAVAILABLE");
  assert.match(refused.faultMessage ?? "", /ECONNREFUSED/);
});

test("a client that goes away halfway through its request body is no fault of the upstream's", async (t) => {
  // The upstream reads whatever comes and never answers before the body ends.
  const upstreamPort = await listen(
    t,
    http.createServer((req) => req.resume()),
  );
  const results: Promise<unknown>[] = [];
  const gatewayPort = await listen(
    t,
    http.createServer((req, res) => {
      results.push(
        proxyRequest(req, res, {
          target: upstreamTarget(new URL(`http://127.0.0.1:${upstreamPort}`), "/upload"),
          method: "POST",
          headers: { host: `127.0.0.1:${upstreamPort}`, "content-length": String(req.headers["content-length"]) },
          timeoutMs: 5000,
          onResponse: () => ({}),
        }),
      );
    }),
  );
  const client = net.connect(gatewayPort, "127.0.0.1");
  await new Promise<void>((resolve) => client.once("connect", () => resolve()));
  client.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + "x".repeat(1000));
  while (results.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  // Let the first part reach the upstream, then leave.
  await new Promise((resolve) => setTimeout(resolve, 100));
  client.destroy();
  const result = (await results[0]) as { fault: string | null; status: number | null; requestBytes: number };
  assert.equal(result.fault, null, "the client left: not the upstream's failure");
  assert.equal(result.status, null);
  assert.ok(result.requestBytes > 0, "what the client sent was streamed up");
});

test("a large answer to a slow client is read from the upstream no faster than the client takes it", async (t) => {
  // 64 MB the upstream writes as fast as the gateway reads; the client reads nothing for a while.
  let upstreamWrote = 0;
  const chunk = Buffer.alloc(64 * 1024, 97);
  const upstreamPort = await listen(
    t,
    http.createServer((_req, res) => {
      res.writeHead(200, { "content-length": String(1024 * chunk.length) });
      let sent = 0;
      const more = () => {
        while (sent < 1024) {
          sent++;
          upstreamWrote += chunk.length;
          if (!res.write(chunk)) return res.once("drain", more);
        }
        res.end();
      };
      more();
    }),
  );
  const gatewayPort = await listen(
    t,
    http.createServer((req, res) => {
      void proxyRequest(req, res, {
        target: upstreamTarget(new URL(`http://127.0.0.1:${upstreamPort}`), "/big"),
        method: "GET",
        headers: { host: `127.0.0.1:${upstreamPort}` },
        timeoutMs: 5000,
        onResponse: () => ({}),
      });
    }),
  );
  const client = net.connect(gatewayPort, "127.0.0.1");
  client.pause();
  client.write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
  await new Promise((resolve) => setTimeout(resolve, 500));
  // The sockets' buffers on the way hold some MB (Linux's tcp_rmem and tcp_wmem at most 6 and 4 MB each): the rest
  // waits in the upstream.
  assert.ok(upstreamWrote < 32 * 1024 * 1024, `the upstream had written ${upstreamWrote} bytes to a client that read none`);
  let received = 0;
  client.on("data", (c: Buffer) => (received += c.length));
  client.resume();
  await new Promise<void>((resolve) => client.on("data", () => received >= 1024 * chunk.length && resolve()));
  client.destroy();
  assert.equal(upstreamWrote, 1024 * chunk.length);
});
