// The loopback upstream of `npm run bench:gateway`: answers every request with the same small JSON body (after
// reading the request's), keep-alive. Runs in its own process so that neither proxy shares its event loop.
// Environment: PORT, HOST (127.0.0.1).
import http from "node:http";

const body = Buffer.from(JSON.stringify({ ok: true, forecast: { city: "Oslo", tempC: 7.5, wind: "NW 4 m/s" } }));
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 8081), process.env.HOST ?? "127.0.0.1");
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(0));
