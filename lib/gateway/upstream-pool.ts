import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
// Undici's pool alone, not its index: the index loads fetch, WebSocket, caches and more (240 ms and 19 MB of RSS at
// start, against 40-66 ms and 11.4 MB for the pool). The version is pinned in package.json, for this path and because
// 7.28 and later wait a timer (1 ms and more) before each request sent on an idle kept-alive connection, to see
// whether the upstream closed it: +1.2 ms on a gateway call's p50 at 200 req/s (bench:gateway, 2026-12-01).
import Pool from "undici/lib/dispatcher/pool.js";
import { guardedLookup } from "@/lib/webhooks/send";

// The gateway's upstream connections: one undici pool per upstream origin. Undici rather than node:http's client
// because a call costs the gateway's main thread about 18 µs less with it (bench:gateway:ab, 2026-12-01: 125 against
// 143 µs a call; no ClientRequest, IncomingMessage or stream per call, its parser reads each answer's head and body
// in one pass). Calls are made through its dispatch handler interface, the one its own fetch and request are built
// on: the gateway sees each answer's head and chunks as they arrive and decides itself when to read on.

/** An undici dispatch handler, the interface its clients call (undici 7's `onRequestStart` one is translated into it,
 * a cost on every call). Each method is told one thing about the request, in this order. */
export interface UpstreamHandler {
  /** The request has a connection; `abort` lets it go (onError follows). */
  onConnect(abort: (reason?: Error) => void): void;
  /** One chunk of the request's body went out. */
  onBodySent?(chunk: Buffer): void;
  /** The answer's head (a 1xx one too); false pauses reading until `resume`. */
  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean;
  /** One chunk of the answer's body; false pauses reading until `resume`. */
  onData(chunk: Buffer): boolean;
  onComplete(trailers: Buffer[] | null): void;
  /** The request failed: before its answer (no connection, refused address, abort) or during it. */
  onError(error: Error & { code?: string }): void;
}

export interface UpstreamDispatch {
  origin: string;
  method: string;
  path: string;
  /** A list (name, value, name, value…) or an object. The Host header, when given, is the one sent. */
  headers: string[] | OutgoingHttpHeaders;
  body: Buffer | NodeJS.ReadableStream | null;
}

interface Dispatcher {
  dispatch(options: UpstreamDispatch, handler: UpstreamHandler): boolean;
  destroy(): Promise<void>;
}

const pools = new Map<string, Dispatcher>();

function poolFor(origin: string): Dispatcher {
  let pool = pools.get(origin);
  if (!pool) {
    pool = new Pool(origin, {
      connections: 256,
      // The upstream's address is checked as the connection is made (the webhook SSRF rules): an address written in
      // the URL is never looked up, and is checked before the call is made (lib/gateway/proxy.ts).
      connect: { lookup: guardedLookup as never },
      // The product's timeout is the gateway's own (one timer a call, from dispatch to the answer's head); an
      // answer's body may take as long as it likes (an SSE stream).
      headersTimeout: 0,
      bodyTimeout: 0,
    }) as unknown as Dispatcher;
    pools.set(origin, pool);
  }
  return pool;
}

/** Sends a request to the upstream; what happens is told to `handler`, an error in the request itself included. */
export function dispatchUpstream(request: UpstreamDispatch, handler: UpstreamHandler): void {
  poolFor(request.origin).dispatch(request, handler);
}

/** Closes every upstream connection (tests, and a process that ends). */
export async function closeUpstreamPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.destroy()));
}

// node:http's rule for a header repeated in a message: these keep their first value, Set-Cookie is a list, and the
// others are joined with ", ". The gateway reads and passes on answers' headers as node:http gave them before.
const FIRST_ONLY = new Set([
  "age",
  "authorization",
  "content-length",
  "content-type",
  "etag",
  "expires",
  "from",
  "host",
  "if-modified-since",
  "if-unmodified-since",
  "last-modified",
  "location",
  "max-forwards",
  "proxy-authorization",
  "referer",
  "retry-after",
  "server",
  "user-agent",
]);

/** An answer's raw head (name, value, name, value…, as bytes) as node:http's headers object: names in lower case,
 * values read as Latin-1 (each byte one character, so they are written back unchanged). */
export function headersOf(raw: Buffer[]): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toString("latin1").toLowerCase();
    const value = raw[i + 1].toString("latin1");
    // Own properties only: a header named like one of Object's ("constructor") is a header like any other.
    const seen = Object.hasOwn(headers, name) ? headers[name] : undefined;
    if (name === "set-cookie") {
      if (seen) (seen as string[]).push(value);
      else headers[name] = [value];
    } else if (seen === undefined) headers[name] = value;
    else if (!FIRST_ONLY.has(name)) headers[name] = `${seen}, ${value}`;
  }
  return headers;
}
