import { ZodError } from "zod";
import { ApiError } from "./errors";
import { zodToApiError } from "./zod-errors";
import { meta } from "./envelope";

/** Prisma's known errors arrive through the driver adapter with a `code`; we only read that. */
function prismaCode(err: unknown): string | undefined {
  if (err && typeof err === "object" && "code" in err && typeof (err as { code: unknown }).code === "string") {
    const code = (err as { code: string }).code;
    if (/^P\d{4}$/.test(code)) return code;
  }
  return undefined;
}

// The database gone or unable to write for now (stopped, unreachable, its pool exhausted, the SQLite file locked past
// its busy timeout, the disk full): what Prisma, its driver adapters and the direct paths (pg, better-sqlite3) throw.
const UNAVAILABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028"]);
const UNAVAILABLE_ADAPTER_KINDS = new Set(["DatabaseNotReachable", "SocketTimeout", "ConnectionClosed", "TooManyConnections"]);
// PostgreSQL's SQLSTATEs for a connection lost or refused, a server shutting down or starting, too many clients.
const UNAVAILABLE_SQLSTATES = new Set(["08000", "08001", "08003", "08004", "08006", "57P01", "57P02", "57P03", "53300"]);
// Messages only a database or its driver writes. A bare socket error (ECONNREFUSED, ECONNRESET…) counts only inside
// an error Prisma raised, since a handler's other outbound calls fail with the same codes.
const UNAVAILABLE_MESSAGE =
  /Connection terminated|Can't reach database|timeout exceeded when trying to connect|database is locked|SQLITE_(?:BUSY|READONLY|IOERR|FULL)|database or disk is full|the database system is (?:starting up|shutting down|in recovery mode)/i;
const SOCKET_ERROR = /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT/;
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Whether `err` (or what it wraps) says the database cannot be reached or written right now. */
export function isDatabaseUnavailable(err: unknown, depth = 0, underPrisma = false): boolean {
  if (!err || typeof err !== "object" || depth > 5) return false;
  const e = err as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  const code = typeof e.code === "string" ? e.code : "";
  if (UNAVAILABLE_PRISMA_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^SQLITE_(?:BUSY|READONLY|IOERR|FULL)/.test(code))
    return true;
  if (typeof e.kind === "string" && UNAVAILABLE_ADAPTER_KINDS.has(e.kind)) return true;
  const message = typeof e.message === "string" ? e.message : "";
  if (UNAVAILABLE_MESSAGE.test(message)) return true;
  if (underPrisma && (SOCKET_ERROR.test(code) || SOCKET_ERROR.test(message))) return true;
  const prisma = underPrisma || /^P\d{4}$/.test(code) || e.meta?.driverAdapterError !== undefined;
  return isDatabaseUnavailable(e.cause, depth + 1, prisma) || isDatabaseUnavailable(e.meta?.driverAdapterError, depth + 1, prisma);
}

// One line every 5 s while the database is away, not one per request.
const unavailableLog = { last: 0, count: 0 };

function databaseUnavailable(err: unknown, requestId: string): ApiError {
  const first = String((err as { message?: unknown })?.message ?? err)
    .trim()
    .split("\n")
    .filter(Boolean)
    .pop();
  unavailableLog.count++;
  if (Date.now() - unavailableLog.last >= 5000) {
    console.warn(`[${requestId}] database unavailable (${unavailableLog.count} request(s) refused since the last line): ${first}`);
    unavailableLog.last = Date.now();
    unavailableLog.count = 0;
  }
  return new ApiError({
    status: 503,
    type: "server_error",
    code: "SERVICE_UNAVAILABLE",
    message: "The database cannot be reached or written right now, so this request was not completed.",
    suggestion: `Retry after ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds; a POST retried with the same Idempotency-Key is never carried out twice.`,
    headers: { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  });
}

/** Any thrown value → an ApiError. Unknown errors become a generic 500 and are logged with the request id. */
export function toApiError(err: unknown, requestId: string): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof ZodError) return zodToApiError(err, "body");
  switch (prismaCode(err)) {
    case "P2002":
      return new ApiError({
        status: 409,
        type: "conflict_error",
        code: "ALREADY_EXISTS",
        message: "A resource with these values already exists.",
      });
    case "P2025":
      return new ApiError({ status: 404, type: "not_found_error", code: "RESOURCE_NOT_FOUND", message: "No such resource." });
    case "P2003":
      return new ApiError({
        status: 409,
        type: "conflict_error",
        code: "STATE_CONFLICT",
        message: "The resource is referenced by, or refers to, a record that does not exist.",
      });
  }
  if (isDatabaseUnavailable(err)) return databaseUnavailable(err, requestId);
  console.error(`[${requestId}] unhandled error`, err);
  return new ApiError({
    status: 500,
    type: "server_error",
    code: "INTERNAL_ERROR",
    message: `Something went wrong on our side. Quote request id ${requestId} when contacting support.`,
  });
}

export function documentationUrl(baseUrl: string, code: string): string {
  return `${baseUrl}/docs/errors#${code}`;
}

export function errorBody(error: ApiError, requestId: string, baseUrl: string) {
  return {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.field !== undefined ? { field: error.field } : {}),
      ...(error.suggestion !== undefined ? { suggestion: error.suggestion } : {}),
      documentation: documentationUrl(baseUrl, error.code),
      ...(error.extra ?? {}),
    },
    meta: meta(requestId),
  };
}
