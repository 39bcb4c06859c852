// Handing a client's connection from one process to another (PAGE_CONNECTIONS=handoff, the default), so that the
// bytes of a page never cross the data plane's event loop. A connection whose request is a page goes from the data
// plane to Next, through the supervisor (node's IPC channels pass the socket itself: the same TCP connection, the
// client sees nothing); Next answers that one request and, once its answer is written, gives the connection back the
// same way, so the next request on it (an API call, say) is read by the data plane again. Next never reads a second
// request from a connection it was handed: it stops reading the moment it has the first, and whatever the client
// sends meanwhile waits in the kernel for the data plane.
//
// Which requests go: GET and HEAD without a body, HTTP/1.1, no Upgrade or Expect (canHandOff). Anything else for Next
// (a sign-in form's POST, say) is still streamed to it by the data plane (data-plane.mjs's toNext). So is a page whose
// connection holds more than it (aloneOnConnection): a client that pipelines (sends its next request before the answer
// to the last; browsers do not, some tools do) has its page streamed, since the bytes of the requests after it,
// already read here, would not go with the socket.
//
// Why (docs/benchmarks.md, bench:pages-direct): streaming a page cost the data plane 0.5-0.6 ms of CPU, and the paced
// gateway calls 2-3 ms of their p99 while 4 loops fetched pages.

/** PAGE_CONNECTIONS: `handoff` (the default) or `stream`; or the sentence that says why the value cannot be honoured. */
export function pageConnectionsSetting(env = process.env) {
  const raw = env.PAGE_CONNECTIONS?.trim();
  if (!raw) return { handoff: true };
  if (raw === "handoff" || raw === "stream") return { handoff: raw === "handoff" };
  return {
    error: `PAGE_CONNECTIONS must be "handoff" (Next is handed a page's connection) or "stream" (the data plane streams every page), not "${raw}".`,
  };
}

/** Whether this request's connection can be handed over: a bodiless GET/HEAD on HTTP/1.1, nothing to upgrade. */
export function canHandOff(req) {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (req.httpVersion !== "1.1") return false;
  const h = req.headers;
  if (h.upgrade !== undefined || h.expect !== undefined || h["transfer-encoding"] !== undefined) return false;
  return h["content-length"] === undefined || h["content-length"] === "0";
}

/**
 * Whether the last bytes read from the request's connection end with this request, a bodiless one: nothing of a
 * request after it (pipelined in the same read, whole or in part) is in this process. Asked while node:http parses
 * that read (in the request's handler), when the parser still has it. False when it cannot be told.
 */
export function readEndsWithRequest(socket) {
  const parser = socket?.parser;
  if (typeof parser?.getCurrentBuffer !== "function") return false;
  const read = parser.getCurrentBuffer();
  const n = read?.length ?? 0;
  return n >= 4 && read[n - 4] === 13 && read[n - 3] === 10 && read[n - 2] === 13 && read[n - 1] === 10;
}

/**
 * Whether `req` has its connection to itself, so that the connection can leave with it: its read ended with it
 * (`readEndedWithIt`, readEndsWithRequest in its handler), no request after it has been parsed since (a pipelined
 * one, read in the same turn), its answer is the connection's current one (not queued behind an earlier answer) and
 * nothing written before it is still on its way out. Asked a microtask after the handler: node:http parses a whole
 * read, and calls the handler of every request in it, before any microtask runs.
 */
export function aloneOnConnection(req, res, readEndedWithIt) {
  const socket = req.socket;
  return readEndedWithIt && socket?.parser?.incoming === req && res.socket === socket && socket.writableLength === 0;
}

/** The request's head as the client sent it: its request line with `url` (before any rewriting) and its raw headers. */
export function requestHead(method, url, rawHeaders) {
  let head = `${method} ${url} HTTP/1.1\r\n`;
  for (let i = 0; i < rawHeaders.length; i += 2) head += `${rawHeaders[i]}: ${rawHeaders[i + 1]}\r\n`;
  return `${head}\r\n`;
}

/**
 * Sends an HTTP server's connection over this process's IPC channel with `message`; the socket here is done with
 * once sent. Reading stops first (node:http's own 'pause' handler stops the handle of a socket its parser consumes),
 * so no byte the client sends after this is read here. The socket is sent without its `server`: with one, node would
 * track it across processes for server.close(), and a server that has sent one connection then counts its live ones
 * as none when it closes (a drain would cut off the requests in flight). node:http's own error and timeout handlers
 * read that `server`, and an error on a connection that has left is no longer this process's, so they go too. The
 * socket object left here is destroyed, which counts the connection gone and lets node:http drop what it held for
 * it. Resolves to whether it went.
 */
export function sendConnection(message, socket) {
  return new Promise((resolve) => {
    if (!process.send || !process.connected || !socket._handle || socket.destroyed) return resolve(false);
    socket.pause();
    const parser = socket.parser;
    if (parser?._consumed) {
      parser.unconsume();
      parser._consumed = false;
    }
    // Until it has left (a handle waits for the last one's acknowledgement before it is sent), nothing here may
    // start reading it again: node:http resumes a socket when an answer ends or its writes drain.
    const handle = socket._handle;
    handle.readStop();
    handle.reading = false;
    handle.readStart = () => 0;
    for (const [event, name] of [
      ["error", "socketOnError"],
      ["timeout", "socketOnTimeout"],
    ])
      for (const listener of socket.listeners(event)) if (listener.name === name) socket.removeListener(event, listener);
    socket.on("error", () => {});
    socket.server = null;
    const done = (sent) => {
      socket.destroy();
      resolve(sent);
    };
    try {
      process.send(message, socket, { keepOpen: false }, (err) => done(!err));
    } catch {
      done(false);
    }
  });
}

/**
 * A connection that arrived over IPC (or through the supervisor): node started reading it when it made the socket;
 * stop that before the event loop runs again, so that nothing is read into a process that only passes it on.
 */
export function holdStill(socket) {
  const handle = socket?._handle;
  if (handle?.reading) {
    handle.reading = false;
    handle.readStop();
  }
}

/**
 * Serves a connection handed to this process on `server`, the request `head` (text, latin1) first when given. Counted
 * as the server's own, as node:net counts one it accepted, so that a drain (server.close()) waits for the request on
 * it; its destroy, here or when it is handed on, counts it gone.
 */
export function adoptConnection(server, socket, head) {
  if (head) socket.unshift(Buffer.from(head, "latin1"));
  else {
    cameBack.add(socket);
    socket.once("close", () => cameBack.delete(socket));
  }
  server._connections++;
  socket.server = server;
  socket._server = server;
  server.emit("connection", socket);
}

// Connections handed back without a request (Next's, once a page is answered). node:http counts a connection as busy
// from the moment it is set up until its first request ends (so that one that never sends a byte still times out),
// so closeIdleConnections() never closes one that came back and stayed unused, a browser's between two pages, and a
// drain waited for it until its deadline, then exited without writing what was queued.
const cameBack = new Set();

/** Closes the connections handed back to this process on which no request has begun (a drain's idle sweep). */
export function closeIdleConnectionsHandedBack() {
  for (const socket of cameBack) if (!socket.parser?.incoming && !socket._httpMessage) socket.destroy();
}

/** The envelope of a page request Next cannot answer (down or restarting); the API and the gateway are not affected. */
export function portalUnavailable(detail) {
  return {
    error: {
      type: "server_error",
      code: "PORTAL_UNAVAILABLE",
      message: "The portal is not answering right now (it may be restarting); the API and the gateway are unaffected.",
      detail,
    },
  };
}

/** Answers a connection on its way to Next with that 502 itself, and closes it (the supervisor, when Next is gone). */
export function portalUnavailableAnswer(socket, head, detail) {
  const body = JSON.stringify(portalUnavailable(detail));
  const isHead = typeof head === "string" && head.startsWith("HEAD ");
  const answer =
    "HTTP/1.1 502 Bad Gateway\r\ncontent-type: application/json\r\ncache-control: no-store\r\nconnection: close\r\n" +
    `content-length: ${Buffer.byteLength(body)}\r\n\r\n${isHead ? "" : body}`;
  // The client may be gone, or the socket already half sent on: an error here is nobody's to hear.
  socket.on("error", () => {});
  if (!socket.destroyed) socket.end(answer);
}
