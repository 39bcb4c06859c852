// The gateway's answer meter (lib/gateway/answer-meter.ts): quantities read from JSON, SSE events split across
// chunks anywhere, headers and request bodies, and what it does with answers it will not hold.
import { test } from "node:test";
import assert from "node:assert/strict";
import { answerMeter, numberAt } from "@/lib/gateway/answer-meter";

test("numberAt follows dotted paths into objects and arrays and reads numbers only", () => {
  const doc = { usage: { output_tokens: 350, text: "x", n: "12" }, data: [{ rows: 4 }] };
  assert.equal(numberAt(doc, "usage.output_tokens"), 350);
  assert.equal(numberAt(doc, "data.0.rows"), 4);
  assert.equal(numberAt(doc, "usage.n"), 12);
  assert.equal(numberAt(doc, "usage.text"), undefined);
  assert.equal(numberAt(doc, "usage.missing.deeper"), undefined);
  assert.equal(numberAt(null, "a"), undefined);
});

test("an SSE stream cut anywhere: the last value, or the sum, of the events that carry the path", () => {
  const stream =
    'event: message_start\ndata: {"usage":{"input_tokens":1200}}\n\n' +
    'data: {"delta":{"tokens":3}}\n\ndata: {"delta":{"tokens":4}}\r\n\r\n' +
    'data: {"usage":{"output_tokens":2}}\n\ndata: {"usage":{"output_tokens":350}}\n\ndata: [DONE]\n\n';
  for (const size of [1, 3, 7, 1000]) {
    const meter = answerMeter([
      { name: "in", from: { source: "response.json", path: "usage.input_tokens" } },
      { name: "out", from: { source: "response.sse", path: "usage.output_tokens" } },
      { name: "deltas", from: { source: "response.sse", path: "delta.tokens", aggregate: "sum" } },
    ])!;
    meter.headers({ "content-type": "text/event-stream; charset=utf-8" });
    const bytes = Buffer.from(stream);
    for (let i = 0; i < bytes.length; i += size) meter.response(bytes.subarray(i, i + size));
    assert.deepEqual(meter.finish(), { in: 1200, out: 350, deltas: 7 }, `chunks of ${size} bytes`);
  }
});

test("a JSON answer, a header and the request body; an answer over the cap counts 0 with a warning", () => {
  const meter = answerMeter([
    { name: "out", from: { source: "response.json", path: "usage.output_tokens" } },
    { name: "units", from: { source: "response.header", name: "X-Units" } },
    { name: "asked", from: { source: "request.json", path: "max_tokens" } },
  ])!;
  meter.request(Buffer.from('{"max_to'));
  meter.request(Buffer.from('kens":2000}'));
  meter.headers({ "content-type": "application/json", "x-units": "7" });
  meter.response(Buffer.from('{"usage":{"output'));
  meter.response(Buffer.from('_tokens":350}}'));
  assert.deepEqual(meter.finish(), { out: 350, units: 7, asked: 2000 });

  const previous = process.env.METER_JSON_MAX_BYTES;
  process.env.METER_JSON_MAX_BYTES = "10";
  try {
    const warnings: string[] = [];
    const capped = answerMeter([{ name: "out", from: { source: "response.json", path: "usage.output_tokens" } }], (m) => warnings.push(m))!;
    capped.headers({ "content-type": "application/json" });
    capped.response(Buffer.from('{"usage":{"output_tokens":350}}'));
    assert.deepEqual(capped.finish(), { out: 0 });
    assert.match(warnings[0], /METER_JSON_MAX_BYTES/);
  } finally {
    if (previous === undefined) delete process.env.METER_JSON_MAX_BYTES;
    else process.env.METER_JSON_MAX_BYTES = previous;
  }
  assert.equal(answerMeter([]), null, "a price that measures nothing needs no meter");
});

test("SSE: characters split between chunks, data fields without a space or over lines, a last event without its blank line", () => {
  const stream =
    'data: {"text":"héllo – ☃ 𝄞","usage":\n' + // one event over two data lines, joined with \n
    'data:{"jetons_é":5}}\n\n' + // no space after the colon; a key a split character would break
    "event: note\nid: 7\nretry: 10\n\n" + // no data: no event
    'data: {"usage":{"jetons_é":9},"text":"ü"}'; // the stream ends without a blank line
  for (const size of [1, 2, 5, 1000]) {
    const meter = answerMeter([{ name: "out", from: { source: "response.sse", path: "usage.jetons_é", aggregate: "sum" } }])!;
    meter.headers({ "content-type": "text/event-stream" });
    const bytes = Buffer.from(stream);
    for (let i = 0; i < bytes.length; i += size) meter.response(bytes.subarray(i, i + size));
    assert.deepEqual(meter.finish(), { out: 14 }, `chunks of ${size} bytes`);
  }
});

test("eventEnd cuts a chunk after each blank line, LF or CRLF, and gives a leading line end a piece of its own", async () => {
  const { eventEnd } = await import("@/lib/gateway/answer-meter");
  const pieces = (text: string) => {
    const chunk = Buffer.from(text);
    const out: string[] = [];
    for (let from = 0, to = 0; from < chunk.length; from = to) {
      to = eventEnd(chunk, from);
      out.push(chunk.subarray(from, to).toString());
    }
    return out;
  };
  assert.deepEqual(pieces("data: a\n\ndata: b\r\n\r\nevent: x\ndata: c\n\ndata: tail"), [
    "data: a\n\n",
    "data: b\r\n\r\n",
    "event: x\ndata: c\n\n",
    "data: tail",
  ]);
  assert.deepEqual(pieces("\ndata: b\n\n"), ["\n", "data: b\n\n"], "the blank line ending the chunk before's event");
  assert.deepEqual(pieces("\r\n"), ["\r\n"]);
  assert.deepEqual(pieces("data: no end"), ["data: no end"]);
});
