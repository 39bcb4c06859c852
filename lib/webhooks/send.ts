import http from "node:http";
import https from "node:https";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { isRefusedAddress } from "./url-safety";

// One delivery attempt: POST the body, 10 s for the whole exchange, no redirects followed, at most 64 KB of
// the response read (a 10 MB answer costs no more), and the connection's address checked against SSRF.

export const ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  headers: Record<string, string>;
  body: string;
  durationMs: number;
  error: string | null;
  retryAfterSeconds: number | null;
}

const refusal = () => Object.assign(new Error("refused: the host resolves to a private address"), { code: "EPRIVATE" });

export function guardedLookup(
  hostname: string,
  options: object,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, "");
    if (addresses.some((a) => isRefusedAddress(a.address))) {
      return callback(refusal(), "");
    }
    const wantAll = (options as { all?: boolean }).all;
    if (wantAll) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
}

function parseRetryAfter(value: string | undefined): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : Math.max(0, Math.ceil((t - Date.now()) / 1000));
}

export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs = ATTEMPT_TIMEOUT_MS,
): Promise<AttemptResult> {
  const started = performance.now();
  const u = new URL(url);
  // An address literal is connected to without a lookup, so guardedLookup never sees it: checked here.
  const literal = u.hostname.replace(/^\[|\]$/g, "");
  if (isIP(literal) && isRefusedAddress(literal)) {
    return Promise.resolve({
      ok: false,
      status: null,
      headers: {},
      body: "",
      durationMs: 0,
      error: refusal().message,
      retryAfterSeconds: null,
    });
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<AttemptResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: Math.round(performance.now() - started) });
    };
    const client = u.protocol === "https:" ? https : http;
    const req = client.request(
      u,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        lookup: guardedLookup as never,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(c.subarray(0, MAX_RESPONSE_BYTES - size));
          size += c.length;
          if (size >= MAX_RESPONSE_BYTES) res.destroy(); // enough read; the rest is not worth receiving
        });
        const done = () => {
          const status = res.statusCode ?? 0;
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
          finish({
            ok: status >= 200 && status < 300,
            status,
            headers: out,
            body: Buffer.concat(chunks).toString("utf8"),
            error: status >= 300 && status < 400 ? `redirect to ${String(res.headers.location ?? "").slice(0, 200)} not followed` : null,
            retryAfterSeconds: parseRetryAfter(res.headers["retry-after"] as string | undefined),
          });
        };
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${timeoutMs / 1000} s`));
    }, timeoutMs);
    req.on("error", (e) =>
      finish({ ok: false, status: null, headers: {}, body: "", error: e.message.slice(0, 500), retryAfterSeconds: null }),
    );
    req.end(body);
  });
}
