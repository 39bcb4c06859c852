// `npm run example:upstream`: a stand-in for a provider's own API, for the README's walk-through on one machine.
// A tiny weather API on http://127.0.0.1:4010 (EXAMPLE_UPSTREAM_PORT), loopback only: GET /v1/forecast?city=Oslo
// answers a made-up forecast as JSON. The platform proxies to it from /gw/weather-api/forecast once the product's
// upstreamUrl points here; the server must allow loopback upstreams for that (ALLOW_PRIVATE_URLS=true).
import http from "node:http";

const port = Number(process.env.EXAMPLE_UPSTREAM_PORT ?? 4010);

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://upstream");
  const json = (status, body) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  if (req.method !== "GET" || url.pathname !== "/v1/forecast") return json(404, { error: "Try GET /v1/forecast?city=Oslo" });
  const city = url.searchParams.get("city") ?? "Oslo";
  // The same city always gets the same forecast: a made-up one, from its name.
  const seed = [...city].reduce((n, c) => n + c.charCodeAt(0), 0);
  const days = [0, 1, 2].map((d) => ({
    day: d,
    high: 5 + ((seed + d * 7) % 20),
    low: (seed + d * 3) % 8,
    sky: ["sun", "cloud", "rain"][(seed + d) % 3],
  }));
  json(200, { city, days, upstreamKey: req.headers["x-upstream-key"] ? "received" : "missing" });
});

server.listen(port, "127.0.0.1", () => console.log(`[example upstream] http://127.0.0.1:${port}/v1/forecast?city=Oslo`));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
