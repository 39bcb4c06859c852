// The loopback upstream of `npm run bench:gateway`: answers every request with the same small JSON body (after
// reading the request's), keep-alive; a path with /stream gets an LLM-style SSE answer instead (a start event with
// the input tokens, 10 deltas, the output tokens, [DONE]). Runs in its own process so that neither proxy shares its
// event loop.
// Environment: PORT, HOST (127.0.0.1).
import http from "node:http";

const body = Buffer.from(JSON.stringify({ ok: true, forecast: { city: "Oslo", tempC: 7.5, wind: "NW 4 m/s" } }));
const events = [
  `event: message_start\ndata: ${JSON.stringify({ type: "message_start", usage: { input_tokens: 1200 } })}\n\n`,
  ...Array.from({ length: 10 }, (_, i) => `data: ${JSON.stringify({ type: "delta", delta: { text: `token ${i}` } })}\n\n`),
  `data: ${JSON.stringify({ type: "message_delta", usage: { output_tokens: 350 } })}\n\n`,
  "data: [DONE]\n\n",
];
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.url?.includes("/stream")) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const e of events) res.write(e);
      return res.end();
    }
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 8081), process.env.HOST ?? "127.0.0.1");
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(0));
