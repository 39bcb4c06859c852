// Metering what the answer contains (issue 40): a loopback upstream that answers like an LLM API (JSON with
// `usage`, and an SSE stream of deltas whose events carry the usage), a header metric, a request-body metric and a
// 100 MB answer. The gateway reads the quantities while the answer streams to the client (first byte before the
// upstream has finished, every byte passed), rates them exactly, sends the cost as the trailer X-Request-Cost when
// it is known only after the body, and the usage event and the invoice's lines carry each metric's units.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { BASE_URL, expectError, seedBusiness } from "../helpers/api";
import { db, poll } from "../helpers/usage-db";
import { publishApiProduct, subscribe } from "../helpers/marketplace";

let upstream: http.Server;
let origin = "";
let streamFinishedAt = 0;
const HUNDRED_MB = 100 * 1024 * 1024;

before(async () => {
  upstream = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const url = req.url ?? "/";
      if (url.startsWith("/v1/messages") && !url.includes("stream")) {
        return res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ id: "msg_1", content: [{ text: "Hello" }], usage: { input_tokens: 1200, output_tokens: 350 } }));
      }
      if (url.startsWith("/v1/messages")) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.write(`event: message_start\ndata: ${JSON.stringify({ type: "message_start", usage: { input_tokens: 1200 } })}\n\n`);
        for (let i = 0; i < 5; i++) res.write(`data: ${JSON.stringify({ type: "delta", delta: { text: `part ${i}` } })}\n\n`);
        setTimeout(() => {
          streamFinishedAt = Date.now();
          res.write(`data: ${JSON.stringify({ type: "message_delta", usage: { output_tokens: 350 } })}\r\n\r\n`);
          res.end("data: [DONE]\n\n");
        }, 600);
        return;
      }
      if (url.startsWith("/units")) return res.writeHead(200, { "content-type": "application/json", "x-units": "7" }).end('{"ok":true}');
      if (url.startsWith("/big")) {
        res.writeHead(200, { "content-type": "application/octet-stream", "x-units": "3" });
        const chunk = Buffer.alloc(1024 * 1024, 97);
        let sent = 0;
        const pump = () => {
          while (sent < 100) {
            sent++;
            if (!res.write(chunk)) return res.once("drain", pump);
          }
          res.end();
        };
        return pump();
      }
      if (url.startsWith("/drip")) {
        // Ten events of 100 tokens each, one every 30 ms: a stream whose cost grows as it goes.
        res.writeHead(200, { "content-type": "text/event-stream" });
        let n = 0;
        const timer = setInterval(() => {
          if (res.destroyed) return clearInterval(timer);
          if (n++ < 10) return void res.write(`data: ${JSON.stringify({ delta: { tokens: 100, text: `part ${n}` } })}\n\n`);
          clearInterval(timer);
          res.end('data: {"done":true}\n\n');
        }, 30);
        return;
      }
      if (url.startsWith("/burst")) {
        // The same ten events and their end, CRLF-delimited, in one write: the whole answer arrives at once.
        const events = Array.from(
          { length: 10 },
          (_, i) => `data: ${JSON.stringify({ delta: { tokens: 100, text: `part ${i + 1}` } })}\r\n\r\n`,
        );
        res.writeHead(200, { "content-type": "text/event-stream" });
        return void res.end(`${events.join("")}data: {"done":true}\r\n\r\n`);
      }
      if (url.startsWith("/chunked")) {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("x".repeat(1000));
        return void setTimeout(() => res.end("y".repeat(1000)), 50);
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
after(() => upstream.close());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  trailers: NodeJS.Dict<string>;
  body: Buffer;
  bytes: number;
  firstByteAt: number;
}

/** A gateway call with node:http (fetch does not expose trailers); `keep` false counts the body without keeping it. */
function call(slug: string, key: string, path: string, body?: unknown, keep = true): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${BASE_URL}/gw/${slug}${path}`,
      {
        method: payload ? "POST" : "GET",
        headers: { authorization: `Bearer ${key}`, ...(payload ? { "content-type": "application/json" } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        let firstByteAt = 0;
        res.on("data", (c: Buffer) => {
          if (!firstByteAt) firstByteAt = Date.now();
          bytes += c.length;
          if (keep) chunks.push(c);
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            trailers: res.trailers,
            body: Buffer.concat(chunks),
            bytes,
            firstByteAt,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const LLM_METRICS = [
  { name: "input tokens", unit: "1M tokens", amount: 1, from: { source: "response.json", path: "usage.input_tokens" } },
  { name: "output tokens", unit: "1M tokens", amount: 4, from: { source: "response.json", path: "usage.output_tokens" } },
];

async function eventOf(requestId: string) {
  const id = `use_${requestId.slice(4)}`;
  return poll(() => db.usageEvent.findFirst({ where: { id } }));
}

test("done when: an LLM-style product at 1 USD per million input and 4 per million output tokens, streamed and not", async () => {
  const a = await seedBusiness();
  const { price, slug } = await publishApiProduct(a.test, {
    upstreamUrl: `${origin}/v1`,
    price: { type: "metered", amount: undefined, metrics: LLM_METRICS },
  });
  assert.deepEqual(
    price.metrics.map((m: { from: unknown }) => m.from),
    LLM_METRICS.map((m) => m.from),
  );
  const b = await seedBusiness();
  const sub = await subscribe(b.test, price.id);

  // A JSON answer: the cost is known only after the body, so it is a trailer, never a header.
  const plain = await call(slug, b.testKey, "/messages", { max_tokens: 1000 });
  assert.equal(plain.status, 200, plain.body.toString());
  assert.equal(JSON.parse(plain.body.toString()).usage.output_tokens, 350);
  assert.equal(plain.headers["x-request-cost"], undefined);
  assert.equal(plain.headers.trailer, "X-Request-Cost");
  assert.equal(plain.headers["content-length"], undefined);
  assert.equal(plain.trailers["x-request-cost"], "0.0026 USD", "1,200 × 1/1M + 350 × 4/1M");

  // A stream: every event as it comes (the first before the upstream finished), the cost from its usage events.
  const streamed = await call(slug, b.testKey, "/messages?stream=true", { stream: true });
  assert.equal(streamed.status, 200);
  assert.ok(streamed.firstByteAt < streamFinishedAt, "the first event reached the client before the upstream finished");
  const text = streamed.body.toString();
  assert.match(text, /event: message_start/);
  assert.equal((text.match(/"type":"delta"/g) ?? []).length, 5);
  assert.match(text, /\[DONE\]/);
  assert.equal(streamed.trailers["x-request-cost"], "0.0026 USD");

  // Each usage event carries the units and the exact cost; the request log says the same.
  const ev = await eventOf(String(streamed.headers["x-request-id"]));
  assert.ok(ev, "the streamed call's usage event");
  assert.deepEqual(ev.quantities, { "input tokens": 1200, "output tokens": 350 });
  assert.equal(ev.cost, 0.0026);
  // The consumer sees the same quantities in its usage (GET /v1/usage), not only the call's count and cost.
  const listed = await b.test.get(`/v1/usage?id=${ev.id}&fields=quantity,quantities,cost`);
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body.data, [
    { id: ev.id, quantity: 1, quantities: { "input tokens": 1200, "output tokens": 350 }, cost: 0.0026 },
  ]);
  // Its POST /v1/subscriptions measured nothing: null, not an empty object.
  const unmetered = await poll(async () => {
    const listedPosts = (await b.test.get(`/v1/usage?method=POST&limit=20&fields=quantities,endpoint`)).body.data;
    const own = listedPosts.filter((u: { endpoint: string }) => u.endpoint.startsWith("/v1/"));
    return own.length ? own : null;
  });
  assert.ok(unmetered, "the subscribe call's usage event");
  assert.deepEqual(
    unmetered.map((u: { quantities: unknown }) => u.quantities),
    unmetered.map(() => null),
  );
  const log = await poll(() => db.requestLog.findFirst({ where: { id: String(plain.headers["x-request-id"]) } }));
  assert.equal((log?.responseHeaders as Record<string, string>)["x-request-cost"], "0.0026 USD");

  // The invoice so far: one line per metric with its units and amount.
  const upcoming = await poll(async () => {
    const inv = (await b.test.get(`/v1/invoices/upcoming?subscriptionId=${sub.id}`)).body.data;
    return inv?.lines?.find((l: { description: string }) => l.description === "output tokens")?.quantity === 700 ? inv : null;
  });
  assert.ok(upcoming, "the upcoming invoice counts both calls");
  const line = (name: string) => upcoming.lines.find((l: { description: string }) => l.description === name);
  assert.deepEqual(
    [line("input tokens").quantity, line("input tokens").exactAmount, line("input tokens").unit],
    [2400, "0.0024", "1M tokens"],
  );
  assert.deepEqual([line("output tokens").quantity, line("output tokens").exactAmount], [700, "0.0028"]);
  assert.equal(upcoming.total, 1, "0.0052 USD rounds to 1 cent");
});

test("a header metric, a request-body metric, a 100 MB answer passed byte for byte, and a bytes price of unknown length", async () => {
  const a = await seedBusiness();
  const { price, slug } = await publishApiProduct(a.test, {
    upstreamUrl: origin,
    price: {
      type: "metered",
      amount: undefined,
      metrics: [
        { name: "units", unit: "unit", amount: 0.01, from: { source: "response.header", name: "X-Units" } },
        { name: "asked", unit: "1K tokens", amount: 0.5, from: { source: "request.json", path: "max_tokens" } },
      ],
    },
  });
  const b = await seedBusiness();
  await subscribe(b.test, price.id);
  const units = await call(slug, b.testKey, "/units", { max_tokens: 2000 });
  assert.equal(units.trailers["x-request-cost"], "1.07 USD", "7 units at 0.01 and 2,000 asked tokens at 0.5 a thousand");
  const ev = await eventOf(String(units.headers["x-request-id"]));
  assert.deepEqual(ev?.quantities, { units: 7, asked: 2000 });

  const big = await call(slug, b.testKey, "/big", undefined, false);
  assert.equal(big.status, 200);
  assert.equal(big.bytes, HUNDRED_MB, "every byte of the 100 MB answer");
  assert.equal(big.trailers["x-request-cost"], "0.03 USD");

  // Data transfer priced per byte, an answer without Content-Length: the trailer has the bytes that passed.
  const bytes = await publishApiProduct(a.test, {
    upstreamUrl: origin,
    price: { type: "metered", amount: undefined, metrics: [{ name: "data transfer", unit: "KB", amount: 1 }] },
  });
  await subscribe(b.test, bytes.price.id);
  const chunked = await call(bytes.slug, b.testKey, "/chunked");
  assert.equal(chunked.bytes, 2000);
  assert.equal(chunked.headers["x-request-cost"], undefined, "no header that would have said 0");
  assert.equal(chunked.trailers["x-request-cost"], "2 USD", "2,000 bytes of answer at 1 USD a KB");
});

test("bad metric sources are refused naming the field", async () => {
  const a = await seedBusiness();
  const product = (await a.test.post("/v1/products", { name: "Bad metrics", type: "API" })).body.data;
  const post = (from: unknown) =>
    a.test.post(`/v1/products/${product.id}/prices`, {
      name: "M",
      type: "metered",
      currency: "USD",
      metrics: [{ name: "t", unit: "token", amount: 1, from }],
    });
  assert.equal(expectError(await post({ source: "response.json", path: "usage..x" }), 400, "INVALID_FIELD").field, "metrics[0].from.path");
  assert.equal(expectError(await post({ source: "response.xml", path: "a" }), 400, "INVALID_FIELD").field, "metrics[0].from.source");
  assert.equal(
    expectError(await post({ source: "response.header", name: "bad header" }), 400, "INVALID_FIELD").field,
    "metrics[0].from.name",
  );
  expectError(await post({ source: "response.json" }), 400, "MISSING_REQUIRED_FIELD");
});

test("a prepaid stream is stopped before it costs more than the credits hold: an SSE error event, billed up to there", async () => {
  const a = await seedBusiness();
  const { price, slug } = await publishApiProduct(a.test, {
    upstreamUrl: origin,
    price: {
      type: "metered",
      amount: undefined,
      billing: "prepaid",
      maxCostPerCall: 0.2,
      metrics: [
        { name: "output tokens", unit: "1K tokens", amount: 1, from: { source: "response.sse", path: "delta.tokens", aggregate: "sum" } },
      ],
    },
  });
  const b = await seedBusiness();
  const sub = await subscribe(b.test, price.id);
  assert.equal((await b.test.post(`/v1/subscriptions/${sub.id}/credits`, { amount: 0.5 })).status, 201);

  /** The stream from `path` cut after `events` events of 100 tokens (1 USD a thousand), billed for those. */
  async function expectCutAfter(path: string, events: number) {
    const cut = await call(slug, b.testKey, path);
    assert.equal(cut.status, 200);
    const text = cut.body.toString();
    assert.equal((text.match(/"tokens":100/g) ?? []).length, events, text);
    assert.match(text, /event: error\ndata: .*"code":"insufficient_credits"/);
    assert.doesNotMatch(text, /"done":true/);
    assert.equal(cut.trailers["x-request-cost"], `${events / 10} USD`);
    const ev = await eventOf(String(cut.headers["x-request-id"]));
    assert.deepEqual(ev?.quantities, { "output tokens": events * 100 });
  }
  // 0.5 USD buys 500 tokens: five events of the ten, then the error event instead of the sixth.
  await expectCutAfter("/drip", 5);
  const credits = await poll(async () => {
    const c = (await b.test.get(`/v1/subscriptions/${sub.id}/credits`)).body.data;
    return c.balance === "0" && c.pending === "0" ? c : null;
  });
  assert.ok(credits, "the balance is spent exactly, never below zero");
  const refused = await call(slug, b.testKey, "/drip");
  assert.equal(refused.status, 402);
  assert.equal(JSON.parse(refused.body.toString()).error.code, "INSUFFICIENT_CREDITS");

  // The same stream arriving at once (one write, CRLF): cut between the same two events, not all or nothing.
  assert.equal((await b.test.post(`/v1/subscriptions/${sub.id}/credits`, { amount: 0.3 })).status, 201);
  await expectCutAfter("/burst", 3);
});

test("a prepaid JSON answer measuring more than the call may spend bills its budget: the balance ends at 0, never below", async () => {
  const a = await seedBusiness();
  const { price, slug } = await publishApiProduct(a.test, {
    upstreamUrl: origin,
    price: {
      type: "metered",
      amount: undefined,
      billing: "prepaid",
      maxCostPerCall: 0.1,
      metrics: [
        { name: "input tokens", unit: "1K tokens", amount: 0.1, from: { source: "response.json", path: "usage.input_tokens" } },
        { name: "output tokens", unit: "1K tokens", amount: 1, from: { source: "response.json", path: "usage.output_tokens" } },
      ],
    },
  });
  const b = await seedBusiness();
  const sub = await subscribe(b.test, price.id);
  assert.equal((await b.test.post(`/v1/subscriptions/${sub.id}/credits`, { amount: 0.3 })).status, 201);

  // The answer reports 1,200 input and 350 output tokens: 0.12 + 0.35 = 0.47, more than the 0.3 held. A JSON
  // answer passes whole before it is measured, so it is not cut: it bills 0.3, both metrics scaled alike.
  const answer = await call(slug, b.testKey, "/v1/messages");
  assert.equal(answer.status, 200);
  assert.match(answer.body.toString(), /"output_tokens":350/, "the answer itself passes unchanged");
  const ev = await eventOf(String(answer.headers["x-request-id"]));
  const q = ev?.quantities as Record<string, number>;
  assert.ok(q["output tokens"] < 350 && q["input tokens"] < 1200, JSON.stringify(q));
  const billed = Number(answer.trailers["x-request-cost"]?.split(" ")[0]);
  assert.ok(billed <= 0.3 && billed > 0.299, `billed ${answer.trailers["x-request-cost"]}`);
  const credits = await poll(async () => {
    const c = (await b.test.get(`/v1/subscriptions/${sub.id}/credits`)).body.data;
    return c.pending === "0" ? c : null;
  });
  assert.ok(credits && Number(credits.balance) >= 0 && Number(credits.balance) < 0.001, JSON.stringify(credits));
  assert.equal(Number(credits.balance), Number((0.3 - billed).toFixed(9)));
});
