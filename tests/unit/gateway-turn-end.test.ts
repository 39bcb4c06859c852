import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { endAtTurnEnd } from "@/lib/gateway/proxy";

// A bodyless upstream request is sent at the end of the event loop's turn, with the others that turn made.

async function upstream() {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { seen, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const answered = (request: http.ClientRequest) =>
  new Promise<string>((resolve, reject) => {
    request.on("response", (r) => {
      let body = "";
      r.on("data", (c) => (body += c));
      r.on("end", () => resolve(body));
    });
    request.on("error", reject);
  });

test("requests queued in one turn are ended together at the turn's end, and then answered", async (t) => {
  const up = await upstream();
  t.after(up.close);
  const agent = new http.Agent({ keepAlive: true });
  t.after(() => agent.destroy());
  const requests = ["/a", "/b", "/c"].map((path) => http.request({ host: "127.0.0.1", port: up.port, path, agent }));
  const answers = requests.map(answered);
  for (const r of requests) endAtTurnEnd(r);
  // Nothing is ended while the turn that queued them runs.
  assert.deepEqual(
    requests.map((r) => r.writableEnded),
    [false, false, false],
  );
  // An immediate set after the queueing runs after the queue's: all three are ended by then, in one go.
  const endedByThen = await new Promise<boolean[]>((resolve) => setImmediate(() => resolve(requests.map((r) => r.writableEnded))));
  assert.deepEqual(endedByThen, [true, true, true]);
  assert.deepEqual(await Promise.all(answers), ["ok", "ok", "ok"]);
  assert.deepEqual(up.seen.sort(), ["/a", "/b", "/c"]);
});

test("a request destroyed before the turn ends (its client went away) is not sent", async (t) => {
  const up = await upstream();
  t.after(up.close);
  const gone = http.request({ host: "127.0.0.1", port: up.port, path: "/gone" });
  const errors: Error[] = [];
  gone.on("error", (e) => errors.push(e));
  const kept = http.request({ host: "127.0.0.1", port: up.port, path: "/kept" });
  const keptAnswer = answered(kept);
  endAtTurnEnd(gone);
  endAtTurnEnd(kept);
  gone.destroy();
  assert.equal(await keptAnswer, "ok");
  assert.equal(gone.writableEnded, false);
  assert.deepEqual(up.seen, ["/kept"]);
  // Destroying it is the only error it may report (a socket hang up), never a write after destroy.
  for (const e of errors) assert.doesNotMatch(e.message, /write after/i);
});

test("one request alone waits for nothing but its own turn's end", async (t) => {
  const up = await upstream();
  t.after(up.close);
  const request = http.request({ host: "127.0.0.1", port: up.port, path: "/alone" });
  const answer = answered(request);
  const order: string[] = [];
  endAtTurnEnd(request);
  setImmediate(() => order.push(`immediate: ended ${request.writableEnded}`));
  assert.equal(await answer, "ok");
  assert.deepEqual(order, ["immediate: ended true"]);
});
