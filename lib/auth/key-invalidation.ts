import { redis } from "@/lib/redis/client";
import { invalidateKey } from "./verify-api-key";
import { invalidateAccessTokens } from "./verify-access-token";
import { processSingleton } from "@/lib/process-state";

// A revoked or changed key must stop working on the very next request: in this process at once, and in
// every other process within a second through Redis pub/sub when REDIS_URL is set. Without Redis, other
// processes notice when their cache entry expires (KEY_CACHE_TTL_MS, default 30 s). OAuth grants and access
// tokens (lib/auth/verify-access-token.ts) travel on the same channel by their ids.

const CHANNEL = "platform:api-key-changed";
const subscription = processSingleton("key-invalidation", () => ({ listening: false }));

function invalidateLocally(id: string): void {
  invalidateKey(id);
  invalidateAccessTokens(id);
}

/** A key, an OAuth grant or an access token (by id) changed: drop it from every process's cache. */
export function announceKeyChange(keyId: string): void {
  invalidateLocally(keyId);
  const client = redis();
  if (!client) return;
  const publish = () => { client.publish(CHANNEL, keyId).catch((e: Error) => console.warn(`key invalidation not published: ${e.message}`)); };
  if (client.status === "ready") return publish();
  // A connection still opening (the first change in a fresh process) has no offline queue: send once it is up.
  const onReady = () => { clearTimeout(timer); publish(); };
  const timer = setTimeout(() => { client.off("ready", onReady); console.warn("key invalidation not published: Redis not ready"); }, 5000);
  timer.unref?.();
  client.once("ready", onReady);
}

export function listenForKeyChanges(): void {
  if (subscription.listening) return;
  const sub = redis("subscriber");
  if (!sub) return;
  redis(); // open the publishing connection early too, so a first revocation is sent at once
  subscription.listening = true;
  sub.subscribe(CHANNEL).catch((e: Error) => console.warn(`key invalidation subscribe failed: ${e.message}`));
  sub.on("message", (channel, keyId) => {
    if (channel === CHANNEL) invalidateLocally(keyId);
  });
}
