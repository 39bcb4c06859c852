// The offer bench:gateway, bench:gateway:ab and bench:pages-direct call through: a provider publishes a public API
// product on the bench's upstream with a usage price (0.001 USD a call, the given plan limit and price options), and
// a consumer subscribes to it with a test card; the environment of the same-work reference serving the same offer;
// and what the short benches start before it (startOfferSetup).
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { api } from "./bench-setup.mjs";
import { startServer } from "./server.mjs";

/**
 * What bench:gateway:ab and bench:pages-direct start first: the loopback upstream (scripts/bench-gateway-upstream.mjs),
 * a fresh database with a provider and a consumer, the platform on it (no periodic jobs; `platformEnv` added), and
 * the offer the consumer calls (a plan limit that counts but never refuses). `started(opts)` starts any other server
 * the bench stops at its cleanup.
 */
export async function startOfferSetup(bench, platformEnv = {}) {
  const started = async (opts) => {
    const s = await startServer(opts);
    bench.onCleanup(() => s.stop());
    return s;
  };
  const upstream = await started({ script: "scripts/bench-gateway-upstream.mjs" });
  const db = await bench.freshDb();
  const provider = bench.bootstrap(db.env, "Bench provider");
  const consumer = bench.bootstrap(db.env, "Bench consumer");
  const platform = await started({ env: { ...db.env, ALLOW_PRIVATE_URLS: "true", JOBS_IN_SERVER: "false", ...platformEnv } });
  const offer = await publishAndSubscribe({
    url: platform.url,
    provider,
    consumer,
    upstreamUrl: `${upstream.url}/v1`,
    rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
  });
  return { started, upstream, db, provider, consumer, platform, offer };
}

const CARD = { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };

/** { slug, productId, priceId, subscriptionId } of a fresh offer on the platform at `url`. */
export async function publishAndSubscribe({ url, provider, consumer, upstreamUrl, rateLimit, priceExtra = {} }) {
  const product = await api(`${url}/v1/products`, {
    method: "POST",
    key: provider.testKey,
    body: {
      name: `Bench forecast ${randomBytes(3).toString("hex")}`,
      type: "API",
      description: "The bench:gateway upstream",
      api: { upstreamUrl },
    },
  });
  const price = await api(`${url}/v1/products/${product.data.id}/prices`, {
    method: "POST",
    key: provider.testKey,
    body: { name: "Per call", type: "usage", currency: "USD", amount: 0.001, rateLimit, ...priceExtra },
  });
  const published = await api(`${url}/v1/products/${product.data.id}`, {
    method: "PATCH",
    key: provider.testKey,
    body: { visibility: "public" },
  });
  const sub = await api(`${url}/v1/subscriptions`, {
    method: "POST",
    key: consumer.testKey,
    body: { priceId: price.data.id, paymentMethod: CARD },
  });
  return { slug: published.data.slug, productId: product.data.id, priceId: price.data.id, subscriptionId: sub.data.id };
}

/** scripts/bench-gateway-reference.mjs's environment for an offer: the same upstream, key and slug; its journal and
 * SQLite file in a directory of its own. */
export function referenceEnv({ upstreamUrl, keyHashSecret, consumer, slug }) {
  return {
    UPSTREAM_URL: upstreamUrl,
    KEY_HASH_SECRET: keyHashSecret,
    REFERENCE_KEY: consumer.testKey,
    REFERENCE_SLUG: slug,
    REFERENCE_DIR: mkdtempSync(path.join(tmpdir(), "bench-gateway-reference-")),
  };
}
