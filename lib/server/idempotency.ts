import { createHash } from "node:crypto";
import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { ApiError, invalidParameter } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";

// Idempotency-Key on POST (contract.md): scoped to business and environment, kept 24 hours. The unique index
// on (businessId, environment, key) decides which of two concurrent requests runs: the other sees the
// record and answers 409 while the first is in flight, or replays its result afterwards.

const RETENTION_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse { status: number; body: string }

export type IdempotencyOutcome =
  | { kind: "run"; recordId: string }
  | { kind: "replay"; response: StoredResponse };

export function requestHash(method: string, path: string, rawBody: string): string {
  return createHash("sha256").update(`${method}\n${path}\n${rawBody}`).digest("hex");
}

function isUniqueViolation(e: unknown): boolean {
  return !!e && typeof e === "object" && (e as { code?: string }).code === "P2002";
}

export function validateIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw invalidParameter("Idempotency-Key", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
  }
}

export async function beginIdempotent(auth: AuthContext, key: string, method: string, path: string, hash: string): Promise<IdempotencyOutcome> {
  const scope = { businessId: auth.businessId, environment: auth.environment, key };
  for (let attempt = 0; attempt < 2; attempt++) {
    const t = now();
    try {
      const record = await db.idempotencyRecord.create({
        data: { id: newId("idempotency"), ...scope, method, path, requestHash: hash, state: "processing", createdAt: t, expiresAt: new Date(t.getTime() + RETENTION_MS) },
      });
      return { kind: "run", recordId: record.id };
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
    const existing = await db.idempotencyRecord.findUnique({ where: { businessId_environment_key: scope } });
    if (!existing) continue; // removed between our insert and read: try once more
    if (existing.expiresAt.getTime() <= t.getTime()) {
      await db.idempotencyRecord.deleteMany({ where: { id: existing.id, expiresAt: { lte: t } } });
      continue;
    }
    if (existing.requestHash !== hash) {
      throw new ApiError({
        status: 422, type: "idempotency_error", code: "IDEMPOTENCY_KEY_REUSED",
        message: "This Idempotency-Key was already used with another request (different method, path or body).",
        suggestion: "Use a new Idempotency-Key for a new request.",
      });
    }
    if (existing.state !== "complete" || existing.statusCode === null) {
      throw new ApiError({
        status: 409, type: "conflict_error", code: "IDEMPOTENCY_KEY_IN_USE",
        message: "A request with this Idempotency-Key is still being processed.", suggestion: "Retry after it has finished.",
        headers: { "Retry-After": "1" },
      });
    }
    return { kind: "replay", response: { status: existing.statusCode, body: existing.responseBody ?? "" } };
  }
  throw new ApiError({ status: 409, type: "conflict_error", code: "IDEMPOTENCY_KEY_IN_USE", message: "A request with this Idempotency-Key is still being processed." });
}

export async function completeIdempotent(recordId: string, response: StoredResponse): Promise<void> {
  await db.idempotencyRecord.update({ where: { id: recordId }, data: { state: "complete", statusCode: response.status, responseBody: response.body } });
}

/** A failed request frees its key, so the client can fix the problem and retry with the same key. */
export async function abandonIdempotent(recordId: string): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { id: recordId } });
}
