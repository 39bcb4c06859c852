// What counts as "the database is unavailable" (503 SERVICE_UNAVAILABLE with Retry-After) rather than a bug (500):
// the errors Prisma, its driver adapters and the direct drivers throw when the server is gone or the file is locked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isDatabaseUnavailable, toApiError } from "@/lib/http/error-mapper";

const prismaError = (code: string, message = "", driverAdapterError?: unknown) =>
  Object.assign(new Error(message), { code, meta: driverAdapterError ? { driverAdapterError } : undefined });

test("a database that is gone, timed out, locked or full is unavailable", () => {
  for (const err of [
    prismaError("P1001", "Can't reach database server at `127.0.0.1:5432`"),
    prismaError("P1008", "Operation has timed out", Object.assign(new Error("SocketTimeout"), { cause: { kind: "SocketTimeout" } })),
    prismaError("P2024", "Timed out fetching a new connection from the connection pool."),
    prismaError("P2010", "Raw query failed", { cause: { kind: "DatabaseNotReachable" } }),
    prismaError("P2010", "Raw query failed", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
    new Error("Connection terminated unexpectedly"),
    Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
    Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }),
    new Error("wrapped", { cause: Object.assign(new Error("disk"), { code: "SQLITE_FULL" }) }),
  ])
    assert.equal(isDatabaseUnavailable(err), true, String((err as Error).message));
});

test("anything else is not: a constraint, a missing row, a bug", () => {
  for (const err of [
    prismaError("P2002", "Unique constraint failed"),
    prismaError("P2025", "Record not found"),
    new TypeError("Cannot read properties of undefined"),
    // A socket error of some other call (an upstream, a webhook receiver) is not the database's.
    Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8080"), { code: "ECONNREFUSED" }),
    "a string",
    null,
  ])
    assert.equal(isDatabaseUnavailable(err), false, String(err));
});

test("it maps to 503 SERVICE_UNAVAILABLE with Retry-After, a bug still to 500", () => {
  const unavailable = toApiError(prismaError("P1001", "Can't reach database server"), "req_test");
  assert.equal(unavailable.status, 503);
  assert.equal(unavailable.code, "SERVICE_UNAVAILABLE");
  assert.equal(unavailable.headers?.["Retry-After"], "5");
  const bug = toApiError(new TypeError("x is undefined"), "req_test");
  assert.equal(bug.status, 500);
});
