// The reference of `npm run bench:gateway`: a bare pass-through proxy, the least a proxy does. Plain node:http with a
// keep-alive agent to one upstream; every request streamed (piped) to UPSTREAM_URL + its path and the answer piped
// back; hop-by-hop headers (RFC 9110 §7.6.1, and those named in Connection) removed both ways. No keys, limits,
// metering or rating. An upstream that fails is a 502.
// Environment: UPSTREAM_URL (http://host:port[/prefix]), PORT, HOST (127.0.0.1).
import http from "node:http";

const upstream = new URL(process.env.UPSTREAM_URL);
const prefix = upstream.pathname.replace(/\/+$/, "");
const agent = new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, scheduling: "lifo" });
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function endToEnd(headers) {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase());
  const out = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && !named.includes(name)) out[name] = value;
  return out;
}

const server = http.createServer((req, res) => {
  const headers = endToEnd(req.headers);
  headers.host = upstream.host;
  const out = http.request(
    { agent, host: upstream.hostname, port: upstream.port, method: req.method, path: prefix + req.url, headers },
    (up) => {
      res.writeHead(up.statusCode, endToEnd(up.headers));
      up.pipe(res);
    },
  );
  out.on("error", () => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" }).end('{"error":"upstream failed"}');
    else res.destroy();
  });
  res.on("close", () => {
    if (!res.writableFinished) out.destroy();
  });
  req.pipe(out);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 8080), process.env.HOST ?? "127.0.0.1");
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(0));
