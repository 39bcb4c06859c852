// Issue 61, item 4: PostgreSQL through pgbouncer in transaction pooling (Debian's pgbouncer 1.18, which keeps no
// prepared statement across transactions). With `pgbouncer=true` on DATABASE_URL the server prepares nothing under a
// name (lib/db/pg-direct.ts's statementName): a statement prepared on one of pgbouncer's server connections would be
// missing on the next one. The pool here is two server connections for a server whose pools open more, so every
// client connection's transactions land on both. Runs where the suite runs on PostgreSQL.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { client, seedBusiness } from "../helpers/api";
import { publishApiProduct, subscribe } from "../helpers/marketplace";
import { startJsonUpstream, type JsonUpstream } from "../helpers/json-upstream";
import { startSecondServer, type ServerWithLogs } from "../helpers/usage-db";
import { startPgbouncer } from "../helpers/cluster";

const onPostgres = (process.env.DATABASE_URL ?? "").startsWith("postgres");

if (onPostgres) {
  let bouncer: { url: string; stop(): Promise<void> };
  let server: ServerWithLogs;
  let upstream: JsonUpstream;

  before(async () => {
    upstream = await startJsonUpstream();
    bouncer = await startPgbouncer(process.env.DATABASE_URL!);
    const url = new URL(bouncer.url);
    url.searchParams.set("pgbouncer", "true");
    server = await startSecondServer({ DATABASE_URL: url.toString(), DATA_PLANE_WORKERS: "1", ALLOW_PRIVATE_URLS: "true" });
  });
  after(async () => {
    await server?.stop();
    await bouncer?.stop();
    upstream?.close();
  });

  test("behind pgbouncer in transaction pooling (pgbouncer=true): reads by id, gateway calls, writes and lists all answer", async () => {
    const provider = await seedBusiness();
    const api = client(provider.testKey, server.url);
    const offer = await publishApiProduct(api, { upstreamUrl: upstream.url });
    const consumer = await seedBusiness();
    await subscribe(client(consumer.testKey, server.url), offer.price.id);
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all([
        ...[0, 1, 2, 3].map((i) =>
          fetch(`${server.url}/gw/${offer.slug}/r${round}/${i}`, { headers: { authorization: `Bearer ${consumer.testKey}` } }),
        ),
        ...[0, 1].map(() => fetch(`${server.url}/v1/products`, { headers: { authorization: `Bearer ${provider.testKey}` } })),
        fetch(`${server.url}/v1/api-keys`, {
          method: "POST",
          headers: { authorization: `Bearer ${provider.testKey}`, "content-type": "application/json" },
          body: JSON.stringify({ name: `k${round}`, scopes: ["products:read"] }),
        }),
      ]);
      for (const a of answers) {
        statuses.push(a.status);
        await a.arrayBuffer();
      }
    }
    assert.deepEqual(
      statuses.filter((s) => s !== 200 && s !== 201),
      [],
      server.stderr().slice(-2000),
    );
    assert.doesNotMatch(server.stderr(), /prepared statement .* does not exist/);
  });
}
