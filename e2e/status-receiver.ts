// A webhook receiver on 127.0.0.1 whose answer the test sets: 500 with a body until told otherwise, then 200.
// (helpers.ts's receiver always answers 200.)
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface StatusReceiver {
  url(path?: string): string;
  /** What the next requests are answered with. */
  answer(status: number, body: string): void;
  received: { path: string; body: string; status: number }[];
  close(): Promise<void>;
}

export async function startStatusReceiver(status = 500, body = '{"error":"receiver is down for the test"}'): Promise<StatusReceiver> {
  let current = { status, body };
  const received: StatusReceiver["received"] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "/", body: Buffer.concat(chunks).toString("utf8"), status: current.status });
      res.writeHead(current.status, { "Content-Type": "application/json", "X-Receiver": "e2e" });
      res.end(current.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = "/hooks") => `http://127.0.0.1:${port}${path}`,
    answer(s, b) {
      current = { status: s, body: b };
    },
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
