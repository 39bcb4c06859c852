import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import type { Duplex } from "node:stream";
import { resolvePathAndQuery } from "@/lib/http/request-target";
import { setsPlatformCookie, withoutPlatformCookies } from "@/lib/http/platform-cookies";
import { guardedLookup } from "@/lib/webhooks/send";
import { isRefusedAddress } from "@/lib/webhooks/url-safety";
import { dispatchUpstream, headersOf, type UpstreamHandler } from "./upstream-pool";

// The pass-through: the client's request streamed to the upstream and the upstream's answer streamed back, neither
// body buffered (a 100 MB download or an SSE stream passes in constant memory). One pool of keep-alive connections
// per upstream origin (lib/gateway/upstream-pool.ts). The upstream's address is checked when the connection is made
// (the webhook SSRF rules: loopback and private ranges only with ALLOW_PRIVATE_URLS=true, link-local and metadata
// never). A client that goes away releases the upstream connection; an upstream that fails before answering is a
// 502, one that does not answer within the product's timeout a 504, and neither takes the process down.

// Headers that describe one hop, not the message (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  // Answered by this hop (node:http sends the 100 Continue); undici refuses to send it on.
  "expect",
]);
// The client's credentials for this platform: never passed to the provider.
const CLIENT_CREDENTIALS = new Set(["authorization", "x-api-key"]);
/** A client's header the provider never sees: its credentials, and any X-Platform-* it made up. */
const isClientOwn = (name: string) => CLIENT_CREDENTIALS.has(name) || name.startsWith("x-platform-");

/** One hop's headers for the next: hop-by-hop ones, those its Connection header names, and `drop`'s left out. */
function passHeaders(raw: http.IncomingHttpHeaders, drop?: (name: string) => boolean): OutgoingHttpHeaders {
  const connection = raw.connection;
  const named = connection
    ? String(connection)
        .toLowerCase()
        .split(",")
        .map((h) => h.trim())
    : null;
  const out: OutgoingHttpHeaders = {};
  for (const name in raw) {
    const value = raw[name];
    if (value === undefined || HOP_BY_HOP.has(name) || named?.includes(name) || drop?.(name)) continue;
    out[name] = value;
  }
  return out;
}

/** What the upstream may see of the client's headers: no credentials, no X-Platform-* the client made up, and none
 * of the platform's own cookies (a signed-in portal user's browser sends its session with a call from the page). */
export function forwardableHeaders(raw: http.IncomingHttpHeaders): OutgoingHttpHeaders {
  const out = passHeaders(raw, isClientOwn);
  if (out.cookie !== undefined) {
    const kept = withoutPlatformCookies(String(out.cookie));
    if (kept === null) delete out.cookie;
    else out.cookie = kept;
  }
  return out;
}

/** What the client may get of the upstream's headers: no hop-by-hop ones, and no Set-Cookie of a platform cookie
 * (an upstream answering on this origin could otherwise replace the portal's session with one of its choosing). */
function answerHeaders(raw: http.IncomingHttpHeaders): OutgoingHttpHeaders {
  const out = passHeaders(raw);
  const setCookie = out["set-cookie"];
  if (Array.isArray(setCookie) && setCookie.some(setsPlatformCookie)) {
    const kept = setCookie.filter((c) => !setsPlatformCookie(c));
    if (kept.length) out["set-cookie"] = kept;
    else delete out["set-cookie"];
  }
  return out;
}

// The gateway's own header names are a handful of constants: each lower-cased once, not on every call.
const lowerCased = new Map<string, string>();
function lowerCase(name: string): string {
  let lower = lowerCased.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowerCased.size < 256) lowerCased.set(name, lower);
  }
  return lower;
}

/** One raw header line of an upstream's answer the client may get (the tunnel's answers are written raw). */
const passesRaw = (name: string, value: string) => !(name.toLowerCase() === "set-cookie" && setsPlatformCookie(value));

/** Where an upstream request goes: the upstream's address and the path, with its query, to ask it for. */
export interface UpstreamTarget {
  protocol: string;
  /** Without an IPv6 address's brackets. */
  hostname: string;
  /** As the Host header writes it. */
  host: string;
  port: string;
  /** The keep-alive pool's key. */
  origin: string;
  path: string;
}

type UpstreamBase = Omit<UpstreamTarget, "path"> & { prefix: string };
// A product's upstream URLs are parsed once and kept with it (lib/gateway/gateway-product.ts): their parts, once.
const bases = new WeakMap<URL, UpstreamBase>();

/**
 * The upstream's base URL and the caller's path after the product's slug. The caller's path is resolved on its own
 * (lib/http/request-target.ts), then put under the base's path prefix: whatever it holds ("//host/…", "/\host/…",
 * "../", "%2e%2e/"), it can neither name another host nor climb above the prefix the provider configured.
 */
export function upstreamTarget(baseUrl: URL, pathWithQuery: string): UpstreamTarget {
  let base = bases.get(baseUrl);
  if (!base) {
    base = {
      protocol: baseUrl.protocol,
      hostname: baseUrl.hostname.replace(/^\[|\]$/g, ""),
      host: baseUrl.host,
      port: baseUrl.port,
      origin: baseUrl.origin,
      prefix: baseUrl.pathname.replace(/\/+$/, ""),
    };
    bases.set(baseUrl, base);
  }
  const { protocol, hostname, host, port, origin, prefix } = base;
  return { protocol, hostname, host, port, origin, path: prefix + resolvePathAndQuery(pathWithQuery) };
}

// A request without a body is sent at the end of the event loop's turn (its check phase), with every other one the
// turn started, rather than as soon as it is made. Under load the upstream then gets the turn's requests together and
// answers them in a turn of its own, and their answers come back together: the upstream was woken 0.1 times a call
// instead of 0.85, and the gateway's main thread spent 20-30 µs a call less (bench:gateway's throughput load, three
// interleaved pairs of runs, 2026-11-30; docs/benchmarks.md). The answers to clients already go out so (they wait for
// the turn's journal write). With one call in flight the turn ends at once: a quiet gateway waits for nothing.
const toEnd: { destroyed: boolean; end(): unknown }[] = [];
export function endAtTurnEnd(request: { destroyed: boolean; end(): unknown }): void {
  if (toEnd.push(request) === 1) setImmediate(endQueued);
}
function endQueued(): void {
  const requests = toEnd.splice(0);
  // One whose client went away meanwhile was let go (proxyRequest's "close" handler): nothing to send.
  for (const request of requests) if (!request.destroyed) request.end();
}

// An address written in the URL is never looked up (so guardedLookup never sees it): it is checked here, once per
// upstream host rather than per call (the rules are the process's, fixed at start).
const literalVerdicts = new Map<string, boolean>();
function refusedLiteral(host: string): boolean {
  let refused = literalVerdicts.get(host);
  if (refused === undefined) {
    refused = isIP(host) !== 0 && isRefusedAddress(host);
    if (literalVerdicts.size > 1000) literalVerdicts.clear();
    literalVerdicts.set(host, refused);
  }
  return refused;
}

export type UpstreamFault = "UPSTREAM_UNAVAILABLE" | "UPSTREAM_TIMEOUT";

export interface ProxyResult {
  /** The upstream's status, or null when it never answered (see fault). */
  status: number | null;
  fault: UpstreamFault | null;
  faultMessage: string | null;
  /** From sending the request to the upstream's response headers. */
  upstreamMs: number;
  requestBytes: number;
  responseBytes: number;
  responseHeaders: Record<string, string>;
  /** The whole answer had arrived when its head was handled, and went out in one write with its trailers: calls
   * answered so end in the same turns, and a write they need before their trailers may be shared. */
  arrivedWhole: boolean;
}

export interface UpstreamCall {
  target: UpstreamTarget;
  method: string;
  headers: OutgoingHttpHeaders | string[];
  timeoutMs: number;
}

/** Headers that can be known only once the whole answer has passed (a cost measured from the body): sent as HTTP
 * trailers of a chunked answer, declared up front in `Trailer`. */
export interface DeferredHeaders {
  headers: Record<string, string>;
  trailerNames: string[];
  trailers: (result: ProxyResult) => Record<string, string> | Promise<Record<string, string>>;
}

export interface ProxyCall extends UpstreamCall {
  /** Headers to add to the answer, decided once the upstream's status is known (cost, request id, timing). */
  onResponse: (
    status: number,
    upstreamMs: number,
    headers: http.IncomingHttpHeaders,
  ) => Record<string, string> | DeferredHeaders | Promise<Record<string, string> | DeferredHeaders>;
  /** Each chunk of the request body as it goes to the upstream, and of the answer before it goes to the client. An
   * answer's chunk may stop the answer instead (a budget spent mid-stream): the returned text is written in its place
   * as the answer's last bytes, after the chunk's first `passedBytes` (0 when absent), the upstream is let go and the
   * answer ends (with its trailers). */
  onRequestChunk?: (chunk: Buffer) => void;
  onResponseChunk?: (chunk: Buffer) => void | { stop: string; passedBytes?: number };
}

const REFUSED_ADDRESS = "The upstream's address is not allowed on this deployment.";
const unreachable = (e: { code?: string }) =>
  e.code === "EPRIVATE" ? REFUSED_ADDRESS : `The upstream could not be reached (${e.code ?? "error"}).`;

/** The start all kinds of call share: the result, settled once, a fault before any answer, and the timeout that lets
 * the upstream go. One object with methods rather than a closure each: made on every gateway call. */
abstract class Exchange {
  readonly started = performance.now();
  readonly result: ProxyResult = {
    status: null,
    fault: null,
    faultMessage: null,
    upstreamMs: 0,
    requestBytes: 0,
    responseBytes: 0,
    responseHeaders: {},
    arrivedWhole: false,
  };
  protected settled = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly resolve: (r: ProxyResult) => void) {}

  done(): void {
    if (this.settled) return;
    this.settled = true;
    this.stopTimer();
    this.resolve(this.result);
  }

  fault(kind: UpstreamFault, message: string): void {
    // Never after the call has settled: a client that went away settles it first, and the upstream request's
    // error that letting it go causes is no fault of the upstream's.
    const result = this.result;
    if (!this.settled && result.status === null && !result.fault) {
      result.fault = kind;
      result.faultMessage = message;
      result.upstreamMs = performance.now() - this.started;
    }
    this.done();
  }

  /** Ends the upstream request, whatever it had come to. */
  abstract letGo(): void;

  startTimer(timeoutMs: number): void {
    this.timer = setTimeout(timedOut, timeoutMs, this, timeoutMs);
    this.timer.unref?.();
  }

  stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Settles the call with the fault when the upstream's address is a forbidden literal. */
  refusedTarget(call: UpstreamCall): boolean {
    if (!refusedLiteral(call.target.hostname)) return false;
    this.fault("UPSTREAM_UNAVAILABLE", REFUSED_ADDRESS);
    return true;
  }

  timedOut(timeoutMs: number): void {
    this.fault("UPSTREAM_TIMEOUT", `The upstream did not answer within ${timeoutMs} ms.`);
    this.letGo();
  }

  /** The upstream answered: its status and how long it took. */
  answered(status: number): void {
    this.stopTimer();
    this.result.status = status;
    this.result.upstreamMs = performance.now() - this.started;
  }
}

const timedOut = (c: Exchange, timeoutMs: number) => c.timedOut(timeoutMs);

/** An exchange made through the upstream's pool (lib/gateway/upstream-pool.ts): it is the request's undici handler. */
abstract class PooledExchange extends Exchange implements UpstreamHandler {
  private abortUpstream: ((reason?: Error) => void) | null = null;
  /** Let go before it had a connection: aborted when it gets one. */
  private gone = false;
  protected resumeReading: (() => void) | null = null;
  private call!: UpstreamCall;
  private body: Buffer | NodeJS.ReadableStream | null = null;

  /** Whether the request was let go (the turn-end queue skips it). */
  get destroyed(): boolean {
    return this.gone;
  }

  letGo(): void {
    if (this.gone) return;
    this.gone = true;
    this.abortUpstream?.();
  }

  /** Sends it, its timeout started; false (settled with the fault) when the upstream's address is a forbidden literal. */
  send(call: UpstreamCall, body: Buffer | NodeJS.ReadableStream | null, atTurnEnd: boolean): boolean {
    if (this.refusedTarget(call)) return false;
    this.call = call;
    this.body = body;
    this.startTimer(call.timeoutMs);
    if (atTurnEnd) endAtTurnEnd(this);
    else this.end();
    return true;
  }

  /** The turn-end queue's word for sending it. */
  end(): void {
    const { target, method, headers } = this.call;
    dispatchUpstream({ origin: target.origin, method, path: target.path, headers, body: this.body }, this);
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.gone) abort();
    else this.abortUpstream = abort;
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void): boolean {
    // An informational answer (103 Early Hints) is not the answer.
    if (status < 200) return true;
    if (this.gone) return false;
    this.answered(status);
    this.resumeReading = resume;
    return this.head(status, headersOf(rawHeaders));
  }

  onError(error: Error & { code?: string }): void {
    this.stopTimer();
    // Let go on purpose: whoever let it go settles the call.
    if (this.gone) return;
    if (this.result.status === null) this.fault("UPSTREAM_UNAVAILABLE", unreachable(error));
    else this.failedMidAnswer();
  }

  abstract head(status: number, headers: http.IncomingHttpHeaders): boolean;
  abstract onData(chunk: Buffer): boolean;
  abstract onComplete(): void;
  /** The upstream failed after its head: the answer is cut off. */
  abstract failedMidAnswer(): void;
}

// While the gateway decides an answer's head (its cost, its journal line), the body that arrives is held, up to this
// much before the upstream is read no further.
const HELD_BEFORE_HEAD = 64 * 1024;

/** A pass-through: the client's request and the upstream's answer, streamed. */
class PassThrough extends PooledExchange {
  private deferred: DeferredHeaders | null = null;
  /** Set when the gateway stops an answer itself (a budget spent): the upstream's errors after that are its own. */
  private stopped = false;
  private headSent = false;
  private upstreamEnded = false;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private paused = false;
  private waitingDrain = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly proxied: ProxyCall,
    resolve: (r: ProxyResult) => void,
  ) {
    super(resolve);
  }

  onBodySent(chunk: Buffer): void {
    this.result.requestBytes += chunk.length;
    this.proxied.onRequestChunk?.(chunk);
  }

  head(status: number, headers: http.IncomingHttpHeaders): boolean {
    void this.writeHead(status, headers);
    return true;
  }

  private async writeHead(status: number, upHeaders: http.IncomingHttpHeaders): Promise<void> {
    const { res, result } = this;
    let answer: Record<string, string> | DeferredHeaders;
    try {
      answer = await this.proxied.onResponse(status, result.upstreamMs, upHeaders);
    } catch {
      answer = {};
    }
    if (this.settled) return; // the upstream failed meanwhile, or the client went away
    if (res.destroyed) {
      this.letGo();
      return this.done();
    }
    const deferred = "trailers" in answer && typeof answer.trailers === "function" ? (answer as DeferredHeaders) : null;
    this.deferred = deferred;
    const extra = deferred ? deferred.headers : (answer as Record<string, string>);
    // The gateway's headers win over the upstream's of the same name (names compared in lower case).
    const headers = answerHeaders(upHeaders);
    for (const k in extra) headers[lowerCase(k)] = extra[k];
    // Trailers need a chunked answer: its length is dropped (the bytes pass unchanged).
    if (deferred) {
      delete headers["content-length"];
      headers.trailer = deferred.trailerNames.join(", ");
    }
    // The answer's headers as logged: the same object (writeHead has written them out by the time it returns, so
    // the trailers added to it later change nothing sent). Every value is text but a Set-Cookie list, which the
    // log redacts whole.
    result.responseHeaders = headers as Record<string, string>;
    res.writeHead(status, headers);
    this.headSent = true;
    const held = this.held;
    this.held = [];
    if (this.upstreamEnded) return this.sendWhole(held);
    // A stream of unknown length (SSE, chunked): the head goes out now, and each chunk as it comes. With a length,
    // the head leaves with the first chunk: one write instead of two.
    if (upHeaders["content-length"] === undefined || deferred) res.flushHeaders();
    for (const chunk of held) if (!this.pass(chunk) && this.stopped) return;
    this.readOnIfWritable();
  }

  /** The whole answer was here when its head was decided (a small one, or a short stream): sent with the head in one
   * write, and a metered one looked at whole; one whose cost is known only at its end waits for it (its event is
   * journaled before the answer's first byte then). */
  private sendWhole(held: Buffer[]): void {
    const { res, result } = this;
    const body = held.length === 0 ? null : held.length === 1 ? held[0] : Buffer.concat(held);
    result.arrivedWhole = true;
    let last: Buffer | string | null = body;
    if (body) result.responseBytes = body.length;
    const onChunk = this.proxied.onResponseChunk;
    if (body && onChunk) {
      const verdict = onChunk(body);
      if (verdict && "stop" in verdict) {
        this.stopped = true;
        result.responseBytes = verdict.passedBytes ?? 0;
        last = Buffer.concat([body.subarray(0, result.responseBytes), Buffer.from(verdict.stop)]);
      }
    }
    if (this.deferred) void this.finishDeferred(last);
    else {
      res.end(last ?? undefined);
      this.done();
    }
  }

  onData(chunk: Buffer): boolean {
    if (this.stopped || this.settled) return false;
    if (!this.headSent) {
      this.held.push(chunk);
      this.heldBytes += chunk.length;
      if (this.heldBytes < HELD_BEFORE_HEAD) return true;
      this.paused = true;
      return false;
    }
    return this.pass(chunk);
  }

  /** One chunk to the client, looked at first when metered (one that would overspend is never sent); false when the
   * upstream is to be read no further for now (the client is slow: read on at its drain), or at all (stopped). */
  private pass(chunk: Buffer): boolean {
    const onChunk = this.proxied.onResponseChunk;
    if (onChunk) {
      const verdict = onChunk(chunk);
      if (verdict && "stop" in verdict) {
        this.stopAnswer(chunk, verdict.stop, verdict.passedBytes ?? 0);
        return false;
      }
    }
    this.result.responseBytes += chunk.length;
    if (!this.res.write(chunk) && !this.waitingDrain) {
      this.waitingDrain = true;
      this.res.once("drain", () => this.drained());
    }
    if (!this.waitingDrain) return true;
    this.paused = true;
    return false;
  }

  private drained(): void {
    this.waitingDrain = false;
    this.readOnIfWritable();
  }

  private readOnIfWritable(): void {
    if (!this.paused || this.waitingDrain || this.settled) return;
    this.paused = false;
    this.resumeReading?.();
  }

  /** A budget spent mid-stream: the chunk's first `passed` bytes, then the stop text, end the answer. */
  private stopAnswer(chunk: Buffer, stop: string, passed: number): void {
    this.stopped = true;
    this.letGo();
    const { res, result } = this;
    result.responseBytes += passed;
    if (passed) res.write(chunk.subarray(0, passed));
    res.write(stop);
    if (this.deferred) void this.finishDeferred();
    else {
      res.end();
      this.done();
    }
  }

  onComplete(): void {
    this.upstreamEnded = true;
    if (!this.headSent || this.stopped || this.settled) return; // sent with the head (writeHead)
    if (this.deferred) void this.finishDeferred();
    else {
      this.res.end();
      this.done();
    }
  }

  failedMidAnswer(): void {
    if (this.stopped) return; // let go on purpose (a stream stopped mid-way)
    // The answer had started: the client gets a cut-off body, as from any proxy.
    this.res.destroy();
    this.done();
  }

  /** The answer's trailers, once its end has passed; `last`: what is left to send before them. */
  private async finishDeferred(last?: Buffer | string | null): Promise<void> {
    const { res, result } = this;
    let trailers: Record<string, string> | null = null;
    try {
      trailers = await this.deferred!.trailers(result);
      for (const k in trailers) result.responseHeaders[k.toLowerCase()] = trailers[k];
    } catch (e) {
      console.error("[gateway] the answer's trailers failed", e);
    }
    if (!res.destroyed) {
      // Written in one turn: node corks the socket for it, so the head (when still unsent), the rest of the answer
      // and the trailers leave in one write.
      if (last) res.write(last);
      if (trailers) res.addTrailers(trailers);
    }
    res.end();
    this.done();
  }
}

export function proxyRequest(req: IncomingMessage, res: ServerResponse, call: ProxyCall): Promise<ProxyResult> {
  return new Promise((resolve) => {
    const c = new PassThrough(res, call, resolve);
    // A request without a body (no Content-Length or a zero one, no Transfer-Encoding: RFC 9112 §6.3) has nothing to
    // stream, and is sent at the turn's end; one with a body is streamed to the upstream as it comes.
    const length = req.headers["content-length"];
    const bodiless = req.headers["transfer-encoding"] === undefined && (length === undefined || length === "0");
    if (!c.send(call, bodiless ? null : req, bodiless)) return;
    // A client that goes away releases the upstream connection at once.
    res.on("close", () => {
      if (!res.writableFinished) c.letGo();
      c.done();
    });
  });
}

/** An exchange made with node:http's client: the tunnel's (undici gives an upgraded connection's socket only after
 * a 101, and the tunnel passes any other answer on as it is). */
class TunnelExchange extends Exchange {
  upstream!: http.ClientRequest;

  letGo(): void {
    this.upstream.destroy();
  }

  send(call: UpstreamCall): boolean {
    if (this.refusedTarget(call)) return false;
    // No pooled agent: an upgraded connection is never given back to a pool.
    this.upstream = (call.target.protocol === "https:" ? https : http).request({
      protocol: call.target.protocol,
      hostname: call.target.hostname,
      port: call.target.port || undefined,
      method: call.method,
      path: call.target.path,
      headers: call.headers,
      lookup: guardedLookup as never,
    });
    this.startTimer(call.timeoutMs);
    return true;
  }
}

/**
 * An Upgrade request (WebSocket): sent to the upstream; when it switches protocols (101) its answer is written to
 * the client's socket and the two sockets are piped both ways until either closes. Any other answer is passed to
 * the client as it is. Faults before an answer come back as `fault` for the caller's error envelope.
 */
export function tunnel(req: IncomingMessage, socket: Duplex, head: Buffer, call: UpstreamCall): Promise<ProxyResult> {
  return new Promise((resolve) => {
    const c = new TunnelExchange(resolve);
    if (!c.send(call)) return;
    const { result, upstream } = c;
    const done = () => c.done();
    upstream.on("error", (e: NodeJS.ErrnoException) => {
      c.stopTimer();
      c.fault("UPSTREAM_UNAVAILABLE", unreachable(e));
    });
    upstream.on("upgrade", (up, upSocket, upHead) => {
      c.answered(101);
      const lines = ["HTTP/1.1 101 Switching Protocols"];
      for (let i = 0; i < up.rawHeaders.length; i += 2) {
        if (!passesRaw(up.rawHeaders[i], up.rawHeaders[i + 1])) continue;
        lines.push(`${up.rawHeaders[i]}: ${up.rawHeaders[i + 1]}`);
        result.responseHeaders[up.rawHeaders[i].toLowerCase()] = up.rawHeaders[i + 1];
      }
      socket.write(lines.join("\r\n") + "\r\n\r\n");
      if (upHead.length) socket.write(upHead);
      if (head.length) upSocket.write(head);
      upSocket.on("data", (chunk: Buffer) => (result.responseBytes += chunk.length));
      socket.on("data", (chunk: Buffer) => (result.requestBytes += chunk.length));
      upSocket.pipe(socket).pipe(upSocket);
      const close = () => {
        upSocket.destroy();
        socket.destroy();
      };
      upSocket.on("error", close);
      socket.on("error", close);
      upSocket.on("close", close);
      socket.on("close", close);
      done();
    });
    upstream.on("response", (up) => {
      // No upgrade: the upstream's answer, passed on as it is, then the connection closes.
      c.answered(up.statusCode ?? 502);
      const lines = [`HTTP/1.1 ${result.status} ${up.statusMessage ?? ""}`];
      for (let i = 0; i < up.rawHeaders.length; i += 2) {
        if (HOP_BY_HOP.has(up.rawHeaders[i].toLowerCase()) || !passesRaw(up.rawHeaders[i], up.rawHeaders[i + 1])) continue;
        lines.push(`${up.rawHeaders[i]}: ${up.rawHeaders[i + 1]}`);
      }
      lines.push("Connection: close");
      socket.write(lines.join("\r\n") + "\r\n\r\n");
      up.pipe(socket);
      up.on("end", done);
    });
    socket.on("close", () => {
      if (result.status === null) upstream.destroy();
    });
    upstream.end();
  });
}

export interface BufferedCall extends UpstreamCall {
  body: Buffer | null;
  /** The most of the answer's body kept; the rest is counted (and billed as bytes) but not kept. */
  maxBodyBytes: number;
}

export interface BufferedResult extends ProxyResult {
  /** The answer's body, up to maxBodyBytes. */
  body: Buffer;
  /** False when the body was longer than maxBodyBytes, or was cut off. */
  complete: boolean;
}

/** A request the gateway makes itself, its answer read into memory. */
class BufferedExchange extends PooledExchange {
  readonly chunks: Buffer[] = [];
  private kept = 0;
  complete = true;

  constructor(
    private readonly buffered: BufferedCall,
    resolve: (r: ProxyResult) => void,
  ) {
    super(resolve);
  }

  onBodySent(chunk: Buffer): void {
    this.result.requestBytes += chunk.length;
  }

  head(_status: number, headers: http.IncomingHttpHeaders): boolean {
    for (const k in headers) {
      const v = headers[k];
      if (typeof v === "string") this.result.responseHeaders[k] = v;
    }
    // The timeout bounds reading the body too.
    this.startTimer(this.buffered.timeoutMs);
    return true;
  }

  timedOut(timeoutMs: number): void {
    if (this.result.status === null) return super.timedOut(timeoutMs);
    // The timeout fired while the body was read: what was kept is the answer, cut off.
    this.complete = false;
    this.letGo();
    this.done();
  }

  onData(chunk: Buffer): boolean {
    this.result.responseBytes += chunk.length;
    const max = this.buffered.maxBodyBytes;
    if (this.kept >= max) {
      this.complete = false;
      return true;
    }
    const part = this.kept + chunk.length > max ? chunk.subarray(0, max - this.kept) : chunk;
    if (part !== chunk) this.complete = false;
    this.chunks.push(part);
    this.kept += part.length;
    return true;
  }

  onComplete(): void {
    this.done();
  }

  failedMidAnswer(): void {
    this.complete = false;
    this.done();
  }
}

/**
 * A request made by the gateway itself (an MCP tool call: lib/server/mcp-front-door.ts) rather than passed through:
 * its body given, its answer read into memory up to `maxBodyBytes`. The same pools, SSRF rules and timeout as a
 * pass-through; the timeout also bounds reading the body.
 */
export function requestUpstream(call: BufferedCall): Promise<BufferedResult> {
  return new Promise((resolve) => {
    const c: BufferedExchange = new BufferedExchange(call, (r) => resolve({ ...r, body: Buffer.concat(c.chunks), complete: c.complete }));
    // The caller's headers carry its Content-Length (they may be a raw list, fixed when the request was made).
    c.send(call, call.body?.length ? call.body : null, false);
  });
}
