// Issue 37: the data plane and Next in processes of their own under one supervisor (scripts/serve.mjs). Each test
// starts its own platform on the suite's database, finds its processes (the supervisor's children), and kills one:
//  - Next killed with SIGKILL: /v1 and /gw keep answering at once; the supervisor starts Next again;
//  - a data-plane worker killed with SIGKILL under load: it is started again, the calls it held fail cleanly (a
//    reset connection, never a wrong answer), and every call answered 200 has its usage event, once (the journal);
//  - DATA_PLANE_WORKERS=2 with Redis: a plan's limit is exact over 1,000 calls spread over both workers;
//  - /healthz and /readyz answer for a load balancer.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { db } from "@/lib/db/client";
import { client, seedBusiness } from "../helpers/api";
import { publishApiProduct, subscribe, withinOneWindow } from "../helpers/marketplace";
import { deleteRedisPrefix, poll, startSecondServer, uniquePrefix, type ServerWithLogs } from "../helpers/usage-db";
import { sleep } from "../helpers/receiver";
import { startJsonUpstream, type JsonUpstream } from "../helpers/json-upstream";

let upstream: JsonUpstream;
let upstreamUrl = "";
const servers: ServerWithLogs[] = [];

before(async () => {
  upstream = await startJsonUpstream();
  upstreamUrl = upstream.url;
});
after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  upstream?.close();
});

async function platform(env: Record<string, string> = {}) {
  const s = await startSecondServer({ ALLOW_PRIVATE_URLS: "true", ...env });
  servers.push(s);
  return s;
}

/** The supervisor's children: Next's process and the data plane's workers, by their command line. */
function children(s: ServerWithLogs): { next: number[]; dataPlane: number[] } {
  const out = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(s.child.pid)], { encoding: "utf8" });
  const rows = out
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => l.trim().split(/\s+(.*)/));
  return {
    next: rows.filter(([, args]) => args.includes("next-server.mjs")).map(([pid]) => Number(pid)),
    dataPlane: rows.filter(([, args]) => args.includes("data-plane.mjs")).map(([pid]) => Number(pid)),
  };
}

/** A process's scheduling policy from /proc (0 SCHED_OTHER, 3 SCHED_BATCH, 5 SCHED_IDLE). */
const schedPolicy = (pid: number) => Number(/^policy\s*:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/sched`, "utf8"))?.[1]);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function subscribedProduct(base: string, price: Record<string, unknown> = { amount: 0.001 }) {
  const provider = await seedBusiness();
  const { product, slug, price: p } = await publishApiProduct(client(provider.testKey, base), { upstreamUrl, price });
  const consumer = await seedBusiness();
  await subscribe(client(consumer.testKey, base), p.id);
  return { productId: product.id as string, slug, consumer };
}

function healthOnNewConnection(base: string): Promise<{ pid: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/healthz`, { agent: false }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve(JSON.parse(body)));
      })
      .on("error", reject);
  });
}

async function gw(base: string, slug: string, key: string, path = "/x") {
  const res = await fetch(`${base}/gw/${slug}${path}`, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return res.status;
}

test("/healthz says the data plane is up; /readyz checks the database, its migrations, Redis when set, and Next", async () => {
  const s = await platform();
  const health = await fetch(`${s.url}/healthz`);
  assert.equal(health.status, 200);
  const h = await health.json();
  assert.equal(h.process, "data-plane");
  assert.ok(children(s).dataPlane.includes(h.pid), "answered by a data-plane process, not by Next");
  // glibc's malloc settings that let a burst's memory go back (scripts/serve.mjs), in the data plane's environment.
  const environ = new Map(
    readFileSync(`/proc/${h.pid}/environ`, "utf8")
      .split("\0")
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
  assert.equal(environ.get("MALLOC_ARENA_MAX"), process.env.MALLOC_ARENA_MAX ?? "1");
  assert.equal(environ.get("MALLOC_MMAP_THRESHOLD_"), process.env.MALLOC_MMAP_THRESHOLD_ ?? "131072");
  const ready = await fetch(`${s.url}/readyz`);
  const r = await ready.json();
  assert.equal(ready.status, 200, JSON.stringify(r));
  assert.deepEqual(
    r.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok]),
    [["database", true], ["migrations", true], ...(process.env.REDIS_URL ? [["redis", true]] : []), ["next", true]],
  );
});

test("kill -9 of Next: /v1 and /gw keep answering at once, /readyz says Next is down until it is back", async () => {
  const s = await platform();
  const { slug, consumer } = await subscribedProduct(s.url);
  const [nextPid] = children(s).next;
  assert.ok(nextPid, "Next runs as a process of its own");
  // Next yields every core the data plane wants (NEXT_NICE's default, scripts/serve.mjs); the data plane does not.
  assert.equal(schedPolicy(nextPid), 5, "Next runs under SCHED_IDLE");
  assert.equal(schedPolicy(children(s).dataPlane[0]), 0, "the data plane runs under the normal policy");
  process.kill(nextPid, "SIGKILL");
  await poll(async () => !alive(nextPid), 5000);
  // The very next calls, while Next is gone or starting again.
  assert.equal((await client(consumer.testKey, s.url).get("/v1/products")).status, 200);
  assert.equal(await gw(s.url, slug, consumer.testKey), 200);
  const page = await fetch(`${s.url}/catalog`);
  await page.arrayBuffer();
  if (page.status !== 200) {
    assert.equal(page.status, 502, "a page asked while Next is down is a 502 from the data plane");
    const ready = await fetch(`${s.url}/readyz`);
    assert.equal(ready.status, 503);
  }
  // The supervisor starts Next again: pages come back.
  const back = await poll(async () => {
    const r = await fetch(`${s.url}/catalog`);
    await r.arrayBuffer();
    return r.status === 200;
  }, 60_000);
  assert.ok(back, "Next was started again");
  const [again] = children(s).next;
  assert.ok(again && again !== nextPid);
  assert.equal(schedPolicy(again), 5, "a Next started again is under SCHED_IDLE too");
});

test("kill -9 of a data-plane worker under load: restarted, its calls fail cleanly, no usage event lost or doubled", async () => {
  // Long flushes: what the killed worker answered is only in its journal when it dies.
  const s = await platform({ USAGE_FLUSH_MS: "2000" });
  const { productId, slug, consumer } = await subscribedProduct(s.url);
  const [worker] = children(s).dataPlane;
  // Every call has a path of its own, so its usage event can be told apart.
  const answered: string[] = [];
  let failedCleanly = 0;
  let next = 0;
  let stop = false;
  const loops = Array.from({ length: 4 }, async () => {
    while (!stop) {
      const path = `/call/${next++}`;
      try {
        const status = await gw(s.url, slug, consumer.testKey, path);
        if (status === 200) answered.push(`/gw/${slug}${path}`);
        else assert.fail(`a call answered ${status}`);
      } catch {
        failedCleanly++; // the connection the killed worker held, or a refused one while none listens
        await sleep(20);
      }
    }
  });
  // Under load means calls in flight: wait for the loops to be answering (a cold worker on PostgreSQL on a slow host
  // took longer than a fixed 800 ms to answer its first calls, and the test then saw too few answered).
  assert.ok(await poll(async () => answered.length >= 20, 30_000), `the calls are answered before the kill (${answered.length})`);
  process.kill(worker, "SIGKILL");
  // Calls go on while it is down and after it is back.
  const restarted = await poll(async () => children(s).dataPlane.some((pid) => pid !== worker), 20_000);
  assert.ok(restarted, "the supervisor started a new data-plane worker");
  await poll(
    async () =>
      (await fetch(`${s.url}/healthz`)
        .then((r) => r.status)
        .catch(() => 0)) === 200,
    20_000,
  );
  // And the new worker answers some of them before the loops stop.
  const answeredAtRestart = answered.length;
  assert.ok(
    await poll(async () => answered.length >= answeredAtRestart + 10, 30_000),
    `the new worker answers calls (${answered.length - answeredAtRestart} since it is healthy)`,
  );
  stop = true;
  await Promise.all(loops);
  assert.ok(answered.length > 20, `calls were answered (${answered.length}; ${failedCleanly} failed at the connection)`);
  // The new worker replays the dead one's journal: every answered call has its event, once. A call cut off by the
  // kill after its journal line may be metered too (at least once, as the gateway promises), never twice.
  const paths = async () =>
    (await db.usageEvent.findMany({ where: { productId, statusCode: 200 }, select: { path: true } })).map((e) => e.path);
  await poll(async () => {
    const seen = new Set(await paths());
    return answered.every((p) => seen.has(p));
  }, 30_000);
  await sleep(2500); // a double would come with the next flush
  const all = await paths();
  const seen = new Set(all);
  assert.deepEqual(
    answered.filter((p) => !seen.has(p)),
    [],
    "every answered call has its usage event",
  );
  assert.equal(all.length, seen.size, "no call is metered twice");
  assert.ok(all.length <= answered.length + failedCleanly, "only calls that were made are metered");
});

test("DATA_PLANE_WORKERS=2 with Redis: a plan's limit is exact over 1,000 calls shared by both workers", async () => {
  const prefix = uniquePrefix("data-plane-workers");
  const redisUrl = "redis://127.0.0.1:6379";
  const s = await platform({ REDIS_URL: redisUrl, REDIS_PREFIX: prefix, DATA_PLANE_WORKERS: "2" });
  try {
    await poll(async () => children(s).dataPlane.length === 2, 20_000);
    const { slug, consumer } = await subscribedProduct(s.url, { amount: 0.001, rateLimit: { limit: 400, windowSeconds: 3600 } });
    const pids = new Set<number>();
    // Each on a connection of its own: node:cluster hands connections to the workers in turn.
    for (let i = 0; i < 10; i++) pids.add((await healthOnNewConnection(s.url)).pid);
    assert.equal(pids.size, 2, "both workers answer calls");
    await withinOneWindow(3600, 60_000);
    const statuses: number[] = [];
    const queue = Array.from({ length: 1000 }, (_, i) => i);
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (queue.shift() !== undefined) statuses.push(await gw(s.url, slug, consumer.testKey));
      }),
    );
    assert.equal(statuses.filter((x) => x === 200).length, 400, "exactly the plan's 400 were served");
    assert.equal(statuses.filter((x) => x === 429).length, 600);
  } finally {
    await deleteRedisPrefix(redisUrl, prefix);
  }
});

test("a data plane that cannot start is started again with back-off, then the supervisor gives up loudly", async () => {
  // A database URL no process can use: every data-plane worker dies at start.
  const started = Date.now();
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, ["scripts/serve.mjs"], {
    env: {
      ...process.env,
      DATABASE_URL: "mysql://127.0.0.1/none",
      REDIS_URL: "",
      DATA_PLANE_WORKERS: "1",
      CRASH_LOOP_LIMIT: "2",
      PORT: "0",
      HOST: "127.0.0.1",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      process.kill(-child.pid!, "SIGKILL");
      resolve(null);
    }, 60_000);
    child.on("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  assert.equal(code, 1, `the supervisor ends with 1 (${stderr.slice(-1500)})`);
  assert.match(stderr, /data-plane died \(code \d+\); starting it again in 500 ms/);
  assert.match(stderr, /data-plane died \(code \d+\); starting it again in 1000 ms/);
  assert.match(stderr, /times within a minute: a crash loop\. Giving up; stopping everything\./);
  assert.ok(Date.now() - started >= 1500, "it waited between the attempts");
});

test("DATA_PLANE_WORKERS=2 with Redis: calls rated across both workers cross the included quantity once, and a cancel's final invoice counts every worker's calls", async () => {
  const prefix = uniquePrefix("data-plane-rating");
  const redisUrl = "redis://127.0.0.1:6379";
  const s = await platform({ REDIS_URL: redisUrl, REDIS_PREFIX: prefix, DATA_PLANE_WORKERS: "2", USAGE_FLUSH_MS: "60000" });
  try {
    await poll(async () => children(s).dataPlane.length === 2, 20_000);
    const biz = await seedBusiness();
    const api = client(biz.testKey, s.url);
    const product = (await api.post("/v1/products", { name: "Rated on two workers", type: "API" })).body.data;
    const price = (
      await api.post(`/v1/products/${product.id}/prices`, {
        name: "Plan",
        currency: "USD",
        type: "usage",
        amount: 1.5,
        includedQuantity: 2,
      })
    ).body.data;
    const sub = (await api.post("/v1/subscriptions", { priceId: price.id, paymentMethod: { card: { number: "4242424242424242" } } })).body
      .data;
    // Each verification on a connection of its own, so the two workers take turns.
    const costs: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await postOnNewConnection(s.url, biz.testKey, "/v1/keys/verify", { key: biz.testKey, product: product.id });
      assert.equal(r.status, 200, r.body);
      costs.push(JSON.parse(r.body).data.cost.amount);
    }
    assert.deepEqual(costs, ["0", "0", "1.5", "1.5", "1.5", "1.5"], "two included, then 1.5 each, whichever worker rated it");
    // The usage of all six calls is still queued in the two workers (a minute's flush); cancelling now invoices them.
    const canceled = await api.post(`/v1/subscriptions/${sub.id}/cancel`);
    assert.equal(canceled.status, 200, canceled.text);
    const invoice = (await api.get("/v1/invoices")).body.data.find((i: { subscriptionId: string }) => i.subscriptionId === sub.id);
    assert.equal(
      invoice.lines[0].quantity,
      6,
      `the final invoice counts the calls both workers answered; the log: ${s.stderr().slice(-1500)}`,
    );
  } finally {
    await deleteRedisPrefix(redisUrl, prefix);
  }
});

function postOnNewConnection(base: string, key: string, path: string, body: unknown) {
  const text = JSON.stringify(body);
  return new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(`${base}${path}`, {
      method: "POST",
      agent: false,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(text) },
    });
    req.on("response", (res) => {
      let data = "";
      res.on("data", (d) => (data += d));
      res.on("end", () => resolve({ status: res.statusCode!, body: data, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(text);
  });
}
