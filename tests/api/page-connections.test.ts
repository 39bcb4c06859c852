// Issue 37: a page's connection is handed to Next for its answer and comes back to the data plane
// (PAGE_CONNECTIONS=handoff, the default; scripts/lib/connection-handoff.mjs), so that the bytes of a page never cross
// the data plane's event loop. One keep-alive connection, as a browser's, asks for pages and API calls in turn:
// every answer is right, all on the one connection, and GET /metrics counts which pages were handed over and which
// streamed. PAGE_CONNECTIONS=stream streams them all, as before.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { seedBusiness } from "../helpers/api";
import { startSecondServer, type ServerWithLogs } from "../helpers/usage-db";

const TOKEN = `metrics-${Date.now().toString(36)}-pages`;
const servers: ServerWithLogs[] = [];
after(() => Promise.all(servers.map((s) => s.stop())));

async function platform(env: Record<string, string> = {}) {
  const s = await startSecondServer({ METRICS_TOKEN: TOKEN, ...env });
  servers.push(s);
  return s;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  clientPort: number;
  reused: boolean;
}

/** One request on `agent` (one keep-alive socket): its answer, and which client port and whether a reused socket. */
function ask(agent: http.Agent, base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, agent, headers }, (res) => {
      const clientPort = res.socket.localPort ?? 0; // the socket goes back to the agent's pool once the answer has ended
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, clientPort, reused: req.reusedSocket }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** platform_page_requests_total{how} from the deployment's GET /metrics. */
async function pageRequests(base: string): Promise<{ handed_over: number; streamed: number }> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200);
  const text = await res.text();
  const count = (how: string) => Number(new RegExp(`^platform_page_requests_total\\{how="${how}"\\} (\\d+)`, "m").exec(text)?.[1] ?? 0);
  return { handed_over: count("handed_over"), streamed: count("streamed") };
}

test("one keep-alive connection: each page is handed to Next and the connection comes back for the API calls after it", async () => {
  const s = await platform();
  const business = await seedBusiness();
  const auth = { authorization: `Bearer ${business.testKey}` };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const before = await pageRequests(s.url);
    const answers: Answer[] = [];
    const step = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
      const a = await ask(agent, s.url, method, path, headers, body);
      answers.push(a);
      return a;
    };

    const catalog = await step("GET", "/catalog", { accept: "text/html" });
    assert.equal(catalog.status, 200);
    assert.match(String(catalog.headers["content-type"]), /text\/html/);
    assert.match(catalog.body, /<html/i);

    // The data plane again, on the same connection, right after Next answered on it.
    const health = await step("GET", "/healthz");
    assert.equal(health.status, 200);
    assert.equal(JSON.parse(health.body).process, "data-plane");

    const list = await step("GET", "/v1/products?limit=1", auth);
    assert.equal(list.status, 200, list.body);
    assert.ok(Array.isArray(JSON.parse(list.body).data));

    const docs = await step("GET", "/docs", { accept: "text/html" });
    assert.equal(docs.status, 200);
    assert.match(docs.body, /<html/i);

    // A body after a page: read and answered by the data plane (here refused in the envelope).
    const bad = await step("POST", "/v1/products", { ...auth, "content-type": "application/json" }, "{not json");
    assert.equal(bad.status, 400, bad.body);
    assert.equal(JSON.parse(bad.body).error.code, "INVALID_JSON");

    const missing = await step("GET", "/p/no-such-product-here", { accept: "text/html" });
    assert.equal(missing.status, 404);

    // A page request with a body is not handed over: the data plane streams it to Next.
    const posted = await step("POST", "/catalog", { "content-type": "application/x-www-form-urlencoded" }, "a=1");
    assert.ok(posted.status >= 200 && posted.status < 600);

    const again = await step("GET", "/healthz");
    assert.equal(JSON.parse(again.body).process, "data-plane");

    assert.equal(new Set(answers.map((a) => a.clientPort)).size, 1, "every request went over one connection");
    assert.deepEqual(
      answers.slice(1).map((a) => a.reused),
      answers.slice(1).map(() => true),
    );

    const after = await pageRequests(s.url);
    assert.equal(after.handed_over - before.handed_over, 3, "GET /catalog, GET /docs and the missing page handed over");
    assert.equal(after.streamed - before.streamed, 1, "the POST streamed");
  } finally {
    agent.destroy();
  }
});

test("HEAD of a page is handed over too: its head, no body", async () => {
  const s = await platform();
  // Next closes a connection after a HEAD (streamed or handed over alike), so a connection of its own.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const before = await pageRequests(s.url);
    const head = await ask(agent, s.url, "HEAD", "/docs", { accept: "text/html" });
    assert.equal(head.status, 200);
    assert.match(String(head.headers["content-type"]), /text\/html/);
    assert.equal(head.body, "");
    const after = await pageRequests(s.url);
    assert.equal(after.handed_over - before.handed_over, 1);
  } finally {
    agent.destroy();
  }
});

test("pages asked for on several connections at once are all answered, each connection back with the data plane", async () => {
  const s = await platform();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  try {
    const paths = ["/catalog", "/docs", "/catalog", "/docs", "/healthz", "/catalog", "/docs", "/healthz"];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(paths.map((p) => ask(agent, s.url, "GET", p, { accept: "text/html" })));
      for (const [i, a] of answers.entries()) {
        assert.equal(a.status, 200, `${paths[i]}: ${a.body.slice(0, 200)}`);
        if (paths[i] === "/healthz") assert.equal(JSON.parse(a.body).process, "data-plane");
        else assert.match(a.body, /<html/i);
      }
    }
  } finally {
    agent.destroy();
  }
});

/** Sends a GET for `path` on a connection of its own and hangs up after `after` (the first bytes, or at once). */
function askAndHangUp(base: string, path: string, after: "sent" | "first-bytes") {
  const { hostname, port } = new URL(base);
  return new Promise<void>((resolve) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/html\r\n\r\n`);
      if (after === "sent") setTimeout(() => socket.destroy(), 5);
    });
    socket.once("data", () => socket.destroy());
    socket.on("error", () => {});
    socket.on("close", () => resolve());
  });
}

test("clients that hang up while Next answers their page: no error escapes in Next, and the next client is answered", async () => {
  const s = await platform();
  for (let i = 0; i < 10; i++) {
    await Promise.all([
      askAndHangUp(s.url, "/docs", "sent"),
      askAndHangUp(s.url, "/docs", "first-bytes"),
      askAndHangUp(s.url, "/catalog", "sent"),
    ]);
  }
  await new Promise((r) => setTimeout(r, 1500)); // Next finishes the renders nobody waits for
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const page = await ask(agent, s.url, "GET", "/docs", { accept: "text/html" });
    assert.equal(page.status, 200);
    assert.equal(JSON.parse((await ask(agent, s.url, "GET", "/healthz")).body).process, "data-plane");
  } finally {
    agent.destroy();
  }
  const logged = s.stderr();
  assert.doesNotMatch(logged, /uncaughtException|Cannot read properties/, "an error escaped in a process of the platform");
});

test("a drain waits for a request in flight on a connection Next gave back", async () => {
  // Not in `servers`: this test stops it itself.
  const s = await startSecondServer({ USAGE_FLUSH_MS: "600000" });
  const business = await seedBusiness();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let stopping: Promise<void> | undefined;
  try {
    const page = await ask(agent, s.url, "GET", "/catalog", { accept: "text/html" });
    assert.equal(page.status, 200);
    // A POST on the same connection (handed to Next for the page and given back), its body only half sent.
    const text = JSON.stringify({ name: "Finished during a drain", type: "API" });
    const req = http.request(`${s.url}/v1/products`, {
      method: "POST",
      agent,
      headers: {
        authorization: `Bearer ${business.testKey}`,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
      },
    });
    const answer = new Promise<{ status: number; body: string; clientPort: number }>((resolve) => {
      req.on("response", (res) => {
        const clientPort = res.socket.localPort ?? 0;
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, clientPort }));
      });
      req.on("error", (e) => resolve({ status: 0, body: e.message, clientPort: 0 }));
    });
    req.write(text.slice(0, 5));
    await new Promise((r) => setTimeout(r, 300)); // admitted, waiting for the rest of its body
    stopping = s.stop(); // SIGTERM
    await new Promise((r) => setTimeout(r, 300));
    req.end(text.slice(5));
    const done = await answer;
    assert.equal(done.status, 201, `the request in flight was cut off by the drain: ${done.body}`);
    assert.equal(done.clientPort, page.clientPort, "the POST went over the page's connection");
    await stopping;
  } finally {
    agent.destroy();
    await (stopping ?? s.stop());
  }
});

test("a connection Next gave back and left unused (a browser's between pages) does not hold a drain open", async () => {
  const s = await platform();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const page = await ask(agent, s.url, "GET", "/docs", { accept: "text/html" });
    assert.equal(page.status, 200);
    await new Promise((r) => setTimeout(r, 300)); // back with the data plane by now, and kept open by the agent
    const asked = Date.now();
    await s.stop(); // SIGTERM; the helper kills with SIGKILL what has not exited 5 s later
    assert.equal(s.child.signalCode, null, `killed ${Date.now() - asked} ms after SIGTERM: the drain waited for the idle connection`);
    assert.equal(s.child.exitCode, 0);
  } finally {
    agent.destroy();
  }
});

test("PAGE_CONNECTIONS=stream: every page is streamed through the data plane, none handed over", async () => {
  const s = await platform({ PAGE_CONNECTIONS: "stream" });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const before = await pageRequests(s.url);
    const page = await ask(agent, s.url, "GET", "/catalog", { accept: "text/html" });
    assert.equal(page.status, 200);
    assert.match(page.body, /<html/i);
    const health = await ask(agent, s.url, "GET", "/healthz");
    assert.equal(JSON.parse(health.body).process, "data-plane");
    const after = await pageRequests(s.url);
    assert.equal(after.handed_over - before.handed_over, 0);
    assert.equal(after.streamed - before.streamed, 1);
  } finally {
    agent.destroy();
  }
});

/** Reads `count` answers, one after the other, from a socket's bytes: each one's status and body. */
function readAnswers(socket: net.Socket, count: number, timeoutMs = 15_000) {
  return new Promise<{ status: number; body: string }[]>((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const answers: { status: number; body: string }[] = [];
    const timer = setTimeout(() => reject(new Error(`${answers.length} of ${count} answers after ${timeoutMs} ms`)), timeoutMs);
    const parse = () => {
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString("latin1");
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
        let rest = buffer.subarray(end + 4);
        let body: Buffer;
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        if (length) {
          if (rest.length < Number(length[1])) return;
          body = rest.subarray(0, Number(length[1]));
          rest = rest.subarray(Number(length[1]));
        } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
          const chunks: Buffer[] = [];
          let at = 0;
          for (;;) {
            const line = rest.indexOf("\r\n", at);
            if (line < 0) return;
            const size = parseInt(rest.subarray(at, line).toString("latin1"), 16);
            if (rest.length < line + 2 + size + 2) return;
            chunks.push(rest.subarray(line + 2, line + 2 + size));
            at = line + 2 + size + 2;
            if (size === 0) break;
          }
          body = Buffer.concat(chunks);
          rest = rest.subarray(at);
        } else body = Buffer.alloc(0);
        answers.push({ status, body: body.toString("utf8") });
        buffer = rest;
        if (answers.length === count) {
          clearTimeout(timer);
          return resolve(answers);
        }
      }
    };
    socket.on("data", (d) => {
      buffer = Buffer.concat([buffer, d]);
      parse();
    });
    socket.on("error", reject);
    socket.on("close", () => reject(new Error(`the connection closed after ${answers.length} of ${count} answers`)));
  });
}

test("a client that pipelines (its next request sent before the page's answer) gets every answer, in order", async () => {
  const s = await platform();
  const { hostname, port } = new URL(s.url);
  const host = `Host: ${hostname}:${port}\r\n`;
  const get = (path: string) => `GET ${path} HTTP/1.1\r\n${host}Accept: text/html\r\n\r\n`;
  for (const paths of [
    ["/docs", "/healthz"],
    ["/healthz", "/docs", "/healthz"],
    ["/docs", "/catalog", "/healthz"],
  ]) {
    // Every request in one write (read in one chunk by the data plane), and again with the last request cut in two:
    // its first half read with the page, the rest 200 ms later.
    for (const split of [false, true]) {
      const socket = net.connect(Number(port), hostname);
      try {
        await new Promise((r) => socket.once("connect", r));
        const answers = readAnswers(socket, paths.length);
        const text = paths.map(get).join("");
        const cut = split ? text.length - 12 : text.length;
        socket.write(text.slice(0, cut));
        if (split) setTimeout(() => socket.write(text.slice(cut)), 200);
        const got = await answers;
        paths.forEach((path, i) => {
          const which = `${path}, answer ${i + 1} of ${paths.join(" ")}${split ? " (the last one cut in two)" : ""}`;
          assert.equal(got[i].status, 200, which);
          if (path === "/healthz") assert.equal(JSON.parse(got[i].body).process, "data-plane", which);
          else assert.match(got[i].body, /<html/i, which);
        });
      } finally {
        socket.destroy();
      }
    }
  }
});
