import { redis } from "@/lib/redis/client";
import { invalidateKey } from "./verify-api-key";
import { processSingleton } from "@/lib/process-state";

// A revoked or changed key must stop working on the very next request: in this process at once, and in
// every other process within a second through Redis pub/sub when REDIS_URL is set. Without Redis, other
// processes notice when their cache entry expires (KEY_CACHE_TTL_MS, default 30 s).

const CHANNEL = "platform:api-key-changed";
const subscription = processSingleton("key-invalidation", () => ({ listening: false }));

export function announceKeyChange(keyId: string): void {
  invalidateKey(keyId);
  redis()?.publish(CHANNEL, keyId).catch((e: Error) => console.warn(`key invalidation not published: ${e.message}`));
}

export function listenForKeyChanges(): void {
  if (subscription.listening) return;
  const sub = redis("subscriber");
  if (!sub) return;
  subscription.listening = true;
  sub.subscribe(CHANNEL).catch((e: Error) => console.warn(`key invalidation subscribe failed: ${e.message}`));
  sub.on("message", (channel, keyId) => {
    if (channel === CHANNEL) invalidateKey(keyId);
  });
}
