// A provider's upstream for gateway tests: answers every request with `{"path": <its path>}` as JSON, on a free
// loopback port. `onRequest` sees each request first (what the gateway forwarded).
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface JsonUpstream {
  url: string;
  close(): void;
}

export async function startJsonUpstream(onRequest: (req: http.IncomingMessage) => void = () => {}): Promise<JsonUpstream> {
  const server = http.createServer((req, res) => {
    onRequest(req);
    req.resume();
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
