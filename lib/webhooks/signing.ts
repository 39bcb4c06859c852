import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// Two signatures on every delivery (contract.md):
//  - X-Webhook-Signature: t=<ms>,v1=<hex HMAC-SHA256 keyed by the secret string as given (whsec_ included)
//    over "<ms>.<raw body>">; during a secret rotation one v1 per secret.
//  - Standard Webhooks: webhook-id, webhook-timestamp (seconds), webhook-signature "v1,<base64>" keyed by the
//    base64-decoded part after whsec_, over "<id>.<seconds>.<raw body>"; space-separated during rotation.

export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function platformSignature(secret: string, timestampMs: number, body: string): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(`${timestampMs}.${body}`).digest("hex");
}

export function standardSignature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  return createHmac("sha256", key).update(`${messageId}.${timestampSeconds}.${body}`).digest("base64");
}

export function signatureHeaders(secrets: string[], messageId: string, timestampMs: number, body: string): Record<string, string> {
  const seconds = Math.floor(timestampMs / 1000);
  return {
    "X-Webhook-Signature": [`t=${timestampMs}`, ...secrets.map((s) => `v1=${platformSignature(s, timestampMs, body)}`)].join(","),
    "webhook-id": messageId,
    "webhook-timestamp": String(seconds),
    "webhook-signature": secrets.map((s) => `v1,${standardSignature(s, messageId, seconds, body)}`).join(" "),
  };
}

/**
 * The receiver's check for X-Webhook-Signature (also printed in the docs): the timestamp must be within
 * `toleranceSeconds` of now and one v1 signature must match.
 */
export function verifyPlatformSignature(secret: string, header: string, body: string, nowMs = Date.now(), toleranceSeconds = 300): boolean {
  const parts = header.split(",").map((p) => p.trim());
  const t = Number(parts.find((p) => p.startsWith("t="))?.slice(2));
  if (!Number.isFinite(t) || Math.abs(nowMs - t) > toleranceSeconds * 1000) return false;
  const expected = Buffer.from(platformSignature(secret, t, body), "hex");
  return parts
    .filter((p) => p.startsWith("v1="))
    .some((p) => {
      const given = Buffer.from(p.slice(3), "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
