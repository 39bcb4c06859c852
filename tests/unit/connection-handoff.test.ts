// Which page requests the data plane hands to Next with their connection (scripts/lib/connection-handoff.mjs), the
// head Next is given (the client's request as sent), and PAGE_CONNECTIONS. The hand-over itself, through the
// supervisor's IPC channels, is tests/api/page-connections.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import {
  aloneOnConnection,
  canHandOff,
  pageConnectionsSetting,
  portalUnavailableAnswer,
  readEndsWithRequest,
  requestHead,
  // @ts-expect-error: plain ESM script without types
} from "../../scripts/lib/connection-handoff.mjs";

const req = (method: string, headers: Record<string, string> = {}, httpVersion = "1.1") => ({ method, headers, httpVersion });

test("a bodiless GET or HEAD on HTTP/1.1 is handed over; a body, an upgrade, Expect or HTTP/1.0 is streamed", () => {
  assert.equal(canHandOff(req("GET")), true);
  assert.equal(canHandOff(req("HEAD")), true);
  assert.equal(canHandOff(req("GET", { "content-length": "0" })), true);
  assert.equal(canHandOff(req("POST")), false);
  assert.equal(canHandOff(req("DELETE")), false);
  assert.equal(canHandOff(req("GET", { "content-length": "3" })), false);
  assert.equal(canHandOff(req("GET", { "transfer-encoding": "chunked" })), false);
  assert.equal(canHandOff(req("GET", { upgrade: "websocket" })), false);
  assert.equal(canHandOff(req("GET", { expect: "100-continue" })), false);
  assert.equal(canHandOff(req("GET", {}, "1.0")), false);
});

test("the head is the client's request line and raw headers, in order, duplicates kept", () => {
  const head = requestHead("GET", "/p/weather?x=1", ["Host", "shop.example", "Cookie", "a=1", "Cookie", "b=2", "Accept", "text/html"]);
  assert.equal(head, "GET /p/weather?x=1 HTTP/1.1\r\nHost: shop.example\r\nCookie: a=1\r\nCookie: b=2\r\nAccept: text/html\r\n\r\n");
});

test("PAGE_CONNECTIONS: handoff unless set, stream on request, anything else refused with the reason", () => {
  assert.deepEqual(pageConnectionsSetting({}), { handoff: true });
  assert.deepEqual(pageConnectionsSetting({ PAGE_CONNECTIONS: " handoff " }), { handoff: true });
  assert.deepEqual(pageConnectionsSetting({ PAGE_CONNECTIONS: "stream" }), { handoff: false });
  const refused = pageConnectionsSetting({ PAGE_CONNECTIONS: "proxy" });
  assert.match(refused.error, /PAGE_CONNECTIONS must be "handoff" .* or "stream" .* not "proxy"/);
});

test("a connection Next cannot take gets the 502 envelope and is closed; a HEAD gets the head alone", () => {
  const written = (head: string) => {
    let out = "";
    const socket = new Writable({
      write(chunk, _enc, done) {
        out += chunk;
        done();
      },
    });
    portalUnavailableAnswer(socket, head, "next is not running");
    return { out, ended: socket.writableEnded };
  };
  const get = written("GET /catalog HTTP/1.1\r\n\r\n");
  assert.equal(get.ended, true);
  assert.match(get.out, /^HTTP\/1\.1 502 Bad Gateway\r\n/);
  assert.match(get.out, /\r\nconnection: close\r\n/);
  const [headers, body] = get.out.split("\r\n\r\n");
  assert.equal(Number(/content-length: (\d+)/.exec(headers)?.[1]), Buffer.byteLength(body));
  assert.equal(JSON.parse(body).error.code, "PORTAL_UNAVAILABLE");
  const head = written("HEAD /catalog HTTP/1.1\r\n\r\n");
  assert.equal(head.out.split("\r\n\r\n")[1], "");
});

test("a page's connection leaves with it only when the page is all it holds: nothing read after it, nothing queued or unsent before it", () => {
  const lastRead = (text: string) => ({ parser: { getCurrentBuffer: () => Buffer.from(text, "latin1") } });
  assert.equal(readEndsWithRequest(lastRead("GET /docs HTTP/1.1\r\nHost: a\r\n\r\n")), true);
  assert.equal(readEndsWithRequest(lastRead("GET /docs HTTP/1.1\r\nHost: a\r\n\r\nGET /healthz HTTP/1.1\r\nHo")), false);
  assert.equal(readEndsWithRequest({ parser: {} }), false, "a parser that cannot say: streamed");
  assert.equal(readEndsWithRequest({}), false);

  const socket = { parser: { incoming: null as unknown }, writableLength: 0 };
  const req = { socket };
  const res = { socket };
  socket.parser.incoming = req;
  assert.equal(aloneOnConnection(req, res, true), true);
  assert.equal(aloneOnConnection(req, res, false), false, "the read went on past it");
  socket.parser.incoming = { socket };
  assert.equal(aloneOnConnection(req, res, true), false, "a pipelined request was parsed after it");
  socket.parser.incoming = req;
  assert.equal(aloneOnConnection(req, { socket: null }, true), false, "its answer waits behind an earlier one");
  socket.writableLength = 120;
  assert.equal(aloneOnConnection(req, res, true), false, "an earlier answer is still being written");
});
