// A provider's upstream for gateway tests: answers every request with `{"path": <its path>}` (or what `answer` makes
// of the request) as JSON, on a free loopback port. `onRequest` sees each request first (what the gateway forwarded).
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface JsonUpstream {
  url: string;
  close(): void;
}

export async function startJsonUpstream(
  onRequest: (req: http.IncomingMessage) => void = () => {},
  answer: (req: http.IncomingMessage) => unknown = (req) => ({ path: req.url }),
): Promise<JsonUpstream> {
  const server = http.createServer((req, res) => {
    onRequest(req);
    req.resume();
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(answer(req)));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
