import { createHash } from "node:crypto";
import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { ApiError, invalidParameter } from "@/lib/http/errors";
import { open, seal } from "@/lib/keys/secret-box";
import type { Prisma } from "@/generated/prisma-sqlite";
import type { AuthContext } from "@/lib/http/auth-context";

// Idempotency-Key on POST (contract.md): scoped to business and environment, kept 24 hours. The unique index
// on (businessId, environment, key) decides which of two concurrent requests runs: the other sees the
// record and answers 409 while the first is in flight, or replays its result afterwards.
//
// A record moves processing → committed → complete:
// - processing: claimed for a lease (IDEMPOTENCY_LEASE_MS). A request killed mid-flight (a crash, kill -9) never
//   finishes its record; once the lease is over, a retry with the same key and body takes the record over
//   (a compare-and-set on its claim time) and runs the request again.
// - committed: the handler's transaction committed, and marked the record in that same transaction
//   (markCommitted through lib/db/commit-hook.ts), storing the answer with it when the write declared one
//   (withEvents' `answer`: a transaction that is the last thing its request does). The killed attempt therefore either committed its writes and
//   this mark, or neither; a record left "processing" is safe to run again. An attempt that outlived its lease
//   and was taken over finds its claim gone when it marks, and its transaction rolls back.
// - complete: the response is stored, sealed under the server secret (lib/keys/secret-box.ts), because it may
//   carry a new key or client secret; a replay opens it and answers it as the first response did.

const RETENTION_MS = 24 * 60 * 60 * 1000;

/** How long a claim holds: longer than any request takes (their database waits end after 5 s). */
export function idempotencyLeaseMs(): number {
  const ms = Number(process.env.IDEMPOTENCY_LEASE_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 30_000;
}

export interface StoredResponse {
  status: number;
  body: string;
}

/** The claim a running request holds: the record and the claim time that the compare-and-sets check. */
export interface IdempotencyClaim {
  recordId: string;
  claimedAt: Date;
}

export type IdempotencyOutcome = { kind: "run"; claim: IdempotencyClaim } | { kind: "replay"; response: StoredResponse };

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

export async function beginIdempotent(
  auth: AuthContext,
  key: string,
  method: string,
  path: string,
  hash: string,
): Promise<IdempotencyOutcome> {
  const scope = { businessId: auth.businessId, environment: auth.environment, key };
  for (let attempt = 0; attempt < 2; attempt++) {
    const t = now();
    try {
      const record = await db.idempotencyRecord.create({
        data: {
          id: newId("idempotency"),
          ...scope,
          method,
          path,
          requestHash: hash,
          state: "processing",
          createdAt: t,
          expiresAt: new Date(t.getTime() + RETENTION_MS),
        },
      });
      return { kind: "run", claim: { recordId: record.id, claimedAt: t } };
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
        status: 422,
        type: "idempotency_error",
        code: "IDEMPOTENCY_KEY_REUSED",
        message: "This Idempotency-Key was already used with another request (different method, path or body).",
        suggestion: "Use a new Idempotency-Key for a new request.",
      });
    }
    const leaseOver = existing.createdAt.getTime() + idempotencyLeaseMs() <= t.getTime();
    if (existing.state === "processing" && leaseOver) {
      // The attempt holding the key is gone (or overran its lease) and committed nothing: run again.
      const taken = await db.idempotencyRecord.updateMany({
        where: { id: existing.id, state: "processing", createdAt: existing.createdAt },
        data: { createdAt: t },
      });
      if (taken.count === 1) return { kind: "run", claim: { recordId: existing.id, claimedAt: t } };
      continue; // another retry took it first
    }
    if (existing.state === "committed" && leaseOver) {
      // The request committed and its server stopped before storing the final answer: the answer its transaction
      // declared (stored with the commit) is the one to replay; without one, it is lost.
      if (existing.statusCode === null) throw resultLost();
      const body = openResponse(existing.id, existing.responseBody ?? "");
      if (body === null) throw resultLost();
      return { kind: "replay", response: { status: existing.statusCode, body } };
    }
    if (existing.state !== "complete" || existing.statusCode === null) {
      throw new ApiError({
        status: 409,
        type: "conflict_error",
        code: "IDEMPOTENCY_KEY_IN_USE",
        message: "A request with this Idempotency-Key is still being processed.",
        suggestion: "Retry after it has finished.",
        headers: { "Retry-After": "1" },
      });
    }
    const body = openResponse(existing.id, existing.responseBody ?? "");
    if (body === null) throw resultLost();
    return { kind: "replay", response: { status: existing.statusCode, body } };
  }
  throw new ApiError({
    status: 409,
    type: "conflict_error",
    code: "IDEMPOTENCY_KEY_IN_USE",
    message: "A request with this Idempotency-Key is still being processed.",
  });
}

/** Why a key can be neither replayed nor run again: its request committed, but its response is not readable. */
function resultLost(): ApiError {
  return new ApiError({
    status: 409,
    type: "conflict_error",
    code: "IDEMPOTENCY_RESULT_LOST",
    message:
      "The request with this Idempotency-Key was carried out, but its response cannot be replayed (the server stopped before storing it, or its secret changed). It is not run again.",
    suggestion: "Read the resource to see the result; use a new Idempotency-Key for a new request.",
  });
}

// An empty body (204) has nothing to hide; a body stored before responses were sealed is JSON and read as it is.
function sealResponse(recordId: string, body: string): string {
  return body === "" ? "" : seal(body, `idempotency:${recordId}`);
}

function openResponse(recordId: string, stored: string): string | null {
  if (stored === "" || stored.startsWith("{")) return stored;
  return open(stored, `idempotency:${recordId}`);
}

// Only the attempt holding the claim may change the record: the claim time is part of every condition. A record
// already "committed" by this attempt (a handler with two transactions) stays so.
const ours = (claim: IdempotencyClaim) => ({ id: claim.recordId, createdAt: claim.claimedAt, state: { in: ["processing", "committed"] } });

/** In the handler's transaction: the request has committed. Throws (rolling it back) when the claim was lost. */
export async function markCommitted(
  claim: IdempotencyClaim,
  tx: Prisma.TransactionClient,
  answer: StoredResponse | null = null,
): Promise<void> {
  const data = answer
    ? { state: "committed", statusCode: answer.status, responseBody: sealResponse(claim.recordId, answer.body) }
    : { state: "committed" };
  const marked = await tx.idempotencyRecord.updateMany({ where: ours(claim), data });
  if (marked.count === 0) {
    throw new ApiError({
      status: 409,
      type: "conflict_error",
      code: "IDEMPOTENCY_KEY_IN_USE",
      message: "This request took longer than its Idempotency-Key's lease, and a retry took the key over; nothing was changed.",
      suggestion: "Retry with the same key to see the outcome of the retry.",
      headers: { "Retry-After": "1" },
    });
  }
}

export async function completeIdempotent(claim: IdempotencyClaim, response: StoredResponse): Promise<void> {
  const done = await db.idempotencyRecord.updateMany({
    where: ours(claim),
    data: { state: "complete", statusCode: response.status, responseBody: sealResponse(claim.recordId, response.body) },
  });
  if (done.count === 0) console.warn(`[idempotency] ${claim.recordId}: the claim was taken over before the response was stored`);
}

/** A failed request that committed nothing frees its key, so the client can fix the problem and retry with the same key. */
export async function abandonIdempotent(claim: IdempotencyClaim): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { id: claim.recordId, createdAt: claim.claimedAt, state: "processing" } });
}
