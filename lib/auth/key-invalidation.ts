import { publish, subscribe } from "@/lib/redis/bus";
import { processSingleton } from "@/lib/process-state";
import { invalidateKey } from "./verify-api-key";
import { invalidateAccessTokens } from "./verify-access-token";

// A revoked or changed key must stop working on the very next request: in this process at once, in every other
// process of this machine (Next, the data plane's workers) before the changing call returns (the local bus), and on
// other machines within a Redis round trip when REDIS_URL is set (lib/redis/bus.ts). OAuth grants and access tokens
// (lib/auth/verify-access-token.ts) travel on the same channel by their ids.

const TOPIC = "api-key-changed";
const subscription = processSingleton("key-invalidation", () => ({ listening: false }));

function invalidateLocally(id: string): void {
  invalidateKey(id);
  invalidateAccessTokens(id);
}

/** A key, an OAuth grant or an access token (by id) changed: drop it from every process's cache. */
export function announceKeyChange(keyId: string): void {
  invalidateLocally(keyId);
  publish(TOPIC, keyId);
}

export function listenForKeyChanges(): void {
  if (subscription.listening) return;
  subscription.listening = true;
  subscribe(TOPIC, invalidateLocally);
}
