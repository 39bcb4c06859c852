import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { serverSecret } from "@/lib/auth/server-secret";

export type KeyType = "test" | "live";
import type { Environment } from "@/lib/http/auth-context";
export type { Environment };

export const KEY_PREFIX: Record<KeyType, string> = { test: "sk_test_", live: "sk_live_" };

export const environmentOf = (type: KeyType): Environment => (type === "live" ? "production" : "test");
export const keyTypeOf = (environment: Environment): KeyType => (environment === "production" ? "live" : "test");

// 32 random bytes (256 bits) as base64url: 43 URL-safe characters after the prefix.
const KEY_SHAPE = /^sk_(test|live)_[A-Za-z0-9_-]{43}$/;

export function generateKeyValue(type: KeyType): string {
  return KEY_PREFIX[type] + randomBytes(32).toString("base64url");
}

/** Cheap shape check before any hashing: most hostile input stops here. */
export function hasKeyShape(value: string): boolean {
  return value.length === 51 && KEY_SHAPE.test(value);
}

/** HMAC-SHA256 under the server secret: a leaked database alone cannot be used to check guesses. */
export function hashKey(value: string): string {
  return createHmac("sha256", serverSecret()).update(value, "utf8").digest("hex");
}

export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

export const maskKey = (prefix: string, lastFour: string) => `${prefix}${"*".repeat(8)}${lastFour}`;
