import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { serverSecret } from "@/lib/auth/server-secret";

// Sealing for the secrets the platform must keep readable for a while: the value of a key made by automatic
// rotation, which nobody was there to receive (erased once revealed), and the stored responses of idempotent
// requests, which may carry a new key or client secret (lib/server/idempotency.ts). AES-256-GCM under a key derived
// from the server secret, so a copy of the database alone does not reveal them. `context` (authenticated, not
// stored) binds a sealed value to the row it belongs to: copied into another row, it does not open.

const VERSION = "v1";

function boxKey(): Buffer {
  return createHash("sha256").update("pending-key-secret:").update(serverSecret()).digest();
}

export function seal(plain: string, context?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", boxKey(), iv);
  if (context !== undefined) cipher.setAAD(Buffer.from(context, "utf8"));
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

/** The sealed value, or null when it was sealed under another secret or tampered with. */
export function open(sealed: string, context?: string): string | null {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || data === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", boxKey(), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    if (context !== undefined) decipher.setAAD(Buffer.from(context, "utf8"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
