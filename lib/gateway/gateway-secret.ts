import { createHmac, randomBytes } from "node:crypto";
import { open, seal } from "@/lib/keys/secret-box";

// A product's gateway secret signs the consumer headers of every upstream request (X-Platform-Signature), so
// the provider's API can tell the gateway's calls from anyone else's. `gws_` + base64 of 32 random bytes; the
// HMAC key is those bytes. Stored sealed under the server secret, bound to its product.

const PREFIX = "gws_";
const context = (productId: string) => `gateway-secret:${productId}`;

export function newGatewaySecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

export const sealGatewaySecret = (productId: string, secret: string) => seal(secret, context(productId));
export const openGatewaySecret = (productId: string, sealed: string | null) => (sealed ? open(sealed, context(productId)) : null);

/** The string the signature covers: request id, timestamp, method, path with query as sent upstream, consumer,
 * subscription and environment, joined by dots. */
export function signedContent(f: {
  requestId: string;
  timestamp: number;
  method: string;
  pathWithQuery: string;
  consumer: string;
  subscription: string;
  environment: string;
}): string {
  return `${f.requestId}.${f.timestamp}.${f.method}.${f.pathWithQuery}.${f.consumer}.${f.subscription}.${f.environment}`;
}

/** `v1,<base64 HMAC-SHA256>` per secret, space-separated (the new one first during a rotation's overlap). */
export function signatureHeader(secrets: string[], content: string): string {
  let out = "";
  for (const s of secrets) out += `${out ? " " : ""}v1,${createHmac("sha256", keyOf(s)).update(content).digest("base64")}`;
  return out;
}

// The HMAC key of a secret (its 32 bytes), decoded once: a product's secret signs every call made to it.
const keys = new Map<string, Buffer>();
function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(secret.slice(PREFIX.length), "base64");
    if (keys.size > 1000) keys.clear();
    keys.set(secret, key);
  }
  return key;
}
