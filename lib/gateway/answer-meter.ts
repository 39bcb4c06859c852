import type { IncomingHttpHeaders } from "node:http";
import { StringDecoder } from "node:string_decoder";
import type { MetricSourceSpec, PricePlan } from "@/lib/billing/price-plan";

// Metering what an answer contains (issue 40): a price's measured metrics name where each call's quantity is (a
// number in the JSON answer, in the events of an SSE stream, in a header, or in the request's JSON body). The
// gateway feeds the meter the chunks as they pass through to the client, so nothing is held back: a JSON body is
// kept aside only up to METER_JSON_MAX_BYTES (a larger one counts 0, with a warning), an SSE stream is read event by
// event and only the current event is kept.

export interface MeteredMetric {
  name: string;
  from: MetricSourceSpec;
}

const JSON_CAP = () => Number(process.env.METER_JSON_MAX_BYTES ?? 10 * 1024 * 1024);

/** The number at a dotted path ("usage.output_tokens"; a numeric segment indexes an array), or undefined. */
export function numberAt(doc: unknown, path: string): number | undefined {
  let v: unknown = doc;
  for (const key of path.split(".")) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** A JSON body kept aside while it streams past, up to the cap. */
class JsonTap {
  private chunks: Buffer[] = [];
  private size = 0;
  overflowed = false;
  constructor(private readonly cap: number) {}
  push(chunk: Buffer) {
    if (this.overflowed) return;
    this.size += chunk.length;
    if (this.size > this.cap) {
      this.overflowed = true;
      this.chunks = [];
      return;
    }
    this.chunks.push(chunk);
  }
  parse(): unknown {
    if (this.overflowed || this.size === 0) return undefined;
    try {
      return JSON.parse(Buffer.concat(this.chunks).toString("utf8"));
    } catch {
      return undefined;
    }
  }
}

/** An SSE stream read event by event (WHATWG: lines ending in LF or CRLF, `data:` fields joined with \n, a blank
 * line ends an event). Only the line being read is held; only `data:` lines are cut out of the text. */
class SseTap {
  private partial = "";
  private data: string[] = [];
  // node's StringDecoder: a character split between two chunks is held for the next, as TextDecoder's stream mode
  // does, at about a third of its cost a chunk.
  private readonly decoder = new StringDecoder("utf8");
  constructor(
    private readonly onEvent: (data: string) => void,
    private readonly cap: number,
  ) {}
  push(chunk: Buffer) {
    const decoded = this.decoder.write(chunk);
    const text = this.partial ? this.partial + decoded : decoded;
    let from = 0;
    let nl: number;
    while ((nl = text.indexOf("\n", from)) >= 0) {
      const end = nl > from && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.line(text, from, end);
      from = nl + 1;
    }
    this.partial = from === 0 ? text : text.slice(from);
    // A line longer than the cap is not an event anyone meters: dropped rather than held.
    if (this.partial.length > this.cap) this.partial = "";
  }
  end() {
    const rest = this.partial + this.decoder.end();
    if (rest) this.line(rest, 0, rest.endsWith("\r") ? rest.length - 1 : rest.length);
    this.partial = "";
    this.line("", 0, 0);
  }
  /** The line `text[from, end)`. */
  private line(text: string, from: number, end: number) {
    if (end === from) {
      if (this.data.length) this.onEvent(this.data.length === 1 ? this.data[0] : this.data.join("\n"));
      this.data = [];
      return;
    }
    if (text.startsWith("data:", from)) this.data.push(text.slice(text.charCodeAt(from + 5) === 32 ? from + 6 : from + 5, end));
  }
}

/** Where the SSE event that `from` is in ends in `chunk`: after its blank line (LF or CRLF), or the chunk's end. A
 * line end the chunk starts with is a piece of its own: it may end an event the chunk before began. */
export function eventEnd(chunk: Buffer, from: number): number {
  if (chunk[from] === 10) return from + 1;
  if (chunk[from] === 13 && chunk[from + 1] === 10) return from + 2;
  for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, nl + 1)) {
    const next = chunk[nl + 1] === 13 ? nl + 2 : nl + 1;
    if (chunk[next] === 10) return next + 1;
  }
  return chunk.length;
}

export interface AnswerMeter {
  /** A chunk of the request body, as it goes to the upstream. */
  request(chunk: Buffer): void;
  /** The upstream's headers, once. */
  headers(h: IncomingHttpHeaders): void;
  /** A chunk of the answer, as it goes to the client. */
  response(chunk: Buffer): void;
  /** The quantities, by metric name (0 where nothing was found). */
  finish(): Record<string, number>;
  /** An SSE answer's quantities so far (what the events delivered until now carry); null for other answers. */
  current(): Record<string, number> | null;
}

const isSse = (h: IncomingHttpHeaders) => /^text\/event-stream/i.test(String(h["content-type"] ?? ""));

/** A meter for one call; null when the price measures nothing from calls. */
export function answerMeter(metrics: MeteredMetric[], warn: (msg: string) => void = console.warn): AnswerMeter | null {
  if (!metrics.length) return null;
  const cap = JSON_CAP(); // read once a call, not once a chunk
  const wantsRequest = metrics.some((m) => m.from.source === "request.json");
  const wantsBody = metrics.some((m) => m.from.source === "response.json" || m.from.source === "response.sse");
  const request = wantsRequest ? new JsonTap(cap) : null;
  const values = new Map<string, number>();
  let json: JsonTap | null = null;
  let sse: SseTap | null = null;
  let upHeaders: IncomingHttpHeaders = {};

  // An event is parsed only when it names one of the paths' last keys: most events of a stream (the deltas) do not.
  const needles = [
    ...new Set(
      metrics.flatMap((m) =>
        m.from.source === "response.sse" || m.from.source === "response.json" ? [`"${m.from.path.split(".").pop()}"`] : [],
      ),
    ),
  ];
  // A path ending in an array index has no key to look for: every event is parsed then.
  const everyEvent = needles.some((n) => /^"\d+"$/.test(n));
  const onEvent = (data: string) => {
    if (!everyEvent && !needles.some((n) => data.includes(n))) return;
    let doc: unknown;
    try {
      doc = JSON.parse(data);
    } catch {
      return; // "[DONE]" and other non-JSON events carry no quantity
    }
    for (const m of metrics) {
      if (m.from.source !== "response.sse" && m.from.source !== "response.json") continue;
      const v = numberAt(doc, m.from.path);
      if (v === undefined) continue;
      const sum = m.from.source === "response.sse" && m.from.aggregate === "sum";
      values.set(m.name, sum ? (values.get(m.name) ?? 0) + v : v);
    }
  };

  return {
    request(chunk) {
      request?.push(chunk);
    },
    headers(h) {
      upHeaders = h;
      if (!wantsBody) return;
      if (isSse(h)) sse = new SseTap(onEvent, cap);
      else json = new JsonTap(cap);
    },
    response(chunk) {
      if (sse) sse.push(chunk);
      else json?.push(chunk);
    },
    current() {
      if (!sse) return null;
      const out: Record<string, number> = {};
      for (const m of metrics)
        if (m.from.source === "response.sse" || m.from.source === "response.json") out[m.name] = values.get(m.name) ?? 0;
      return out;
    },
    finish() {
      const out: Record<string, number> = {};
      (sse as SseTap | null)?.end();
      const body = (json as JsonTap | null)?.parse();
      if ((json as JsonTap | null)?.overflowed)
        warn(`[gateway] an answer larger than METER_JSON_MAX_BYTES (${cap}) was not read for its metrics: counted as 0`);
      const requestBody = request?.parse();
      if (request?.overflowed) warn(`[gateway] a request body larger than METER_JSON_MAX_BYTES was not read for its metrics`);
      for (const m of metrics) {
        let v: number | undefined;
        if (m.from.source === "response.header") {
          const raw = upHeaders[m.from.name.toLowerCase()];
          const n = Number(Array.isArray(raw) ? raw[0] : raw);
          v = raw !== undefined && Number.isFinite(n) ? n : undefined;
        } else if (m.from.source === "request.json") v = numberAt(requestBody, m.from.path);
        else if (sse) v = values.get(m.name);
        else if (m.from.source === "response.json") v = numberAt(body, m.from.path);
        else if (m.from.source === "response.sse") v = undefined; // an SSE metric of a non-SSE answer
        out[m.name] = v !== undefined && v > 0 ? v : 0;
      }
      return out;
    },
  };
}

/** A meter for a call rated by `plan`'s measured metrics; null when it has none. */
export const meterFor = (plan: PricePlan) =>
  answerMeter(plan.usage.filter((c) => c.measure === "measured").map((c) => ({ name: c.metricKey!, from: c.from! })));
