// Issue 18: no gateway call's usage event is lost when its server is killed with SIGKILL. The server's flush timer
// is far beyond the test, so every event is still queued in memory when the process dies: only the journal
// (lib/usage/usage-journal.ts) has them. A server started afterwards on the same database replays them, each
// once (a second replay adds nothing), and the events written before the crash are not doubled.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { db } from "@/lib/db/client";
import { client, seedBusiness } from "../helpers/api";
import { publishApiProduct, subscribe } from "../helpers/marketplace";
import { startSecondServer, type ServerWithLogs } from "../helpers/usage-db";
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

async function server(env: Record<string, string>) {
  const s = await startSecondServer({ ALLOW_PRIVATE_URLS: "true", ...env });
  servers.push(s);
  return s;
}

function kill9(s: ServerWithLogs): Promise<void> {
  return new Promise((resolve) => {
    const child = s.child;
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

async function subscribedProduct(base: string) {
  const provider = await seedBusiness();
  const { product, slug, price } = await publishApiProduct(client(provider.testKey, base), { upstreamUrl, price: { amount: 0.001 } });
  const consumer = await seedBusiness();
  await subscribe(client(consumer.testKey, base), price.id);
  return { productId: product.id as string, slug, consumer };
}

const eventsOf = (productId: string) => db.usageEvent.findMany({ where: { productId }, select: { id: true, statusCode: true } });

async function settled(productId: string, expected: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let rows = await eventsOf(productId);
  while (rows.length < expected && Date.now() < deadline) {
    await sleep(200);
    rows = await eventsOf(productId);
  }
  return rows;
}

test("kill -9: every gateway call answered before the crash has its usage event, once", async () => {
  // The flush runs every 1.5 s here: the first calls are written before the crash, the last ones are not.
  const first = await server({ USAGE_FLUSH_MS: "1500" });
  const { productId, slug, consumer } = await subscribedProduct(first.url);
  const call = async (path: string, key = consumer.testKey) => {
    const res = await fetch(`${first.url}/gw/${slug}${path}`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    return res.status;
  };
  const early = await Promise.all(Array.from({ length: 6 }, (_, i) => call(`/early/${i}`)));
  assert.equal((await settled(productId, 6)).length, 6, "the first calls were flushed before the crash");
  const late = await Promise.all(Array.from({ length: 20 }, (_, i) => call(`/late/${i}`)));
  assert.deepEqual(
    [...early, ...late].filter((s) => s !== 200),
    [],
  );
  await kill9(first);
  assert.equal((await eventsOf(productId)).length, 6, "the late events were only in memory and the journal");

  // A server started on the same database replays the dead one's journal at once.
  const second = await server({ USAGE_FLUSH_MS: "100", USAGE_JOURNAL_SWEEP_MS: "500" });
  const rows = await settled(productId, 26);
  assert.equal(rows.length, 26, `events after the replay: ${rows.length}\n${second.stderr().slice(-1500)}`);
  assert.equal(new Set(rows.map((r) => r.id)).size, 26);
  assert.ok(rows.every((r) => r.statusCode === 200));
  // Further sweeps (this server's and the suite's) find nothing more to replay: still once each.
  await sleep(1_500);
  assert.equal((await eventsOf(productId)).length, 26);
  const consumerRows = await db.usageEvent.count({ where: { productId, projectId: consumer.projectId } });
  assert.equal(consumerRows, 26, "the replayed events belong to the consumer's project");
});
