// What metering an answer (issue 40) adds to a gateway call, in process: an LLM-style SSE answer (a start event,
// 40 deltas, a usage event and [DONE], in 1 KB chunks as a socket delivers them) and a 1 KB JSON answer, fed to the
// answer meter with two token metrics, against the same chunks passed through untouched. bench:gateway's servers
// move more between runs than this costs, so it is measured here.
// Run: KEY_HASH_SECRET=x DATABASE_URL=file:./data/bench-inproc.db node_modules/.bin/tsx --conditions=react-server scripts/bench-meter-inproc.ts
import { answerMeter } from "@/lib/gateway/answer-meter";

const events = [
  `event: message_start\ndata: ${JSON.stringify({ type: "message_start", usage: { input_tokens: 1200 } })}\n\n`,
  ...Array.from({ length: 40 }, (_, i) => `data: ${JSON.stringify({ type: "delta", delta: { text: `token ${i} of the answer` } })}\n\n`),
  `data: ${JSON.stringify({ type: "message_delta", usage: { output_tokens: 350 } })}\n\n`,
  "data: [DONE]\n\n",
].join("");
const sse = Buffer.from(events);
const sseChunks = Array.from({ length: Math.ceil(sse.length / 1024) }, (_, i) => sse.subarray(i * 1024, (i + 1) * 1024));
const json = Buffer.from(
  JSON.stringify({ id: "msg", content: [{ text: "x".repeat(900) }], usage: { input_tokens: 1200, output_tokens: 350 } }),
);
const metrics = [
  { name: "input tokens", from: { source: "response.json" as const, path: "usage.input_tokens" } },
  { name: "output tokens", from: { source: "response.json" as const, path: "usage.output_tokens" } },
];
const N = 50_000;
let sink = 0;

function run(kind: "sse" | "json", metered: boolean): number {
  const chunks = kind === "sse" ? sseChunks : [json];
  const headers = { "content-type": kind === "sse" ? "text/event-stream" : "application/json" };
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const meter = metered ? answerMeter(metrics)! : null;
    meter?.headers(headers);
    for (const c of chunks) {
      sink += c.length; // what passing the chunk on costs either way is left out: the same on both sides
      meter?.response(c);
    }
    if (meter) sink += meter.finish()["output tokens"];
  }
  return ((performance.now() - t0) * 1000) / N;
}

for (const kind of ["sse", "json"] as const) {
  const rows: string[] = [];
  for (let round = 0; round < 3; round++) rows.push(`${run(kind, false).toFixed(2)} / ${run(kind, true).toFixed(2)}`);
  console.log(
    `${kind} answer of ${(kind === "sse" ? sse : json).length} bytes: µs an answer unmetered / metered, three rounds: ${rows.join(", ")}`,
  );
}
console.log(`(checksum ${sink})`);
