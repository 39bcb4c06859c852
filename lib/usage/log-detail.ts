import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { tenantWhere } from "@/lib/http/tenant";
import type { AuthContext } from "@/lib/http/auth-context";
import { notFound } from "@/lib/http/errors";
import { getLogOrThrow } from "./routes";
import { actorNames, type LogScope } from "./log-search";

// One request of the log as the portal's drawer shows it: headers and bodies (redacted when they were stored),
// timing, the key's name, and what the request cost: its usage event. The recorder writes a request's usage
// event and its log from one record (lib/usage/recorder.ts: same timestamp, key, method, endpoint and status),
// and the usage event carries no request id, so those columns find it; the (project, environment, timestamp)
// index makes that one short range read.

export async function getLogDetail(auth: AuthContext, id: string, scope?: LogScope) {
  const log = await getLogOrThrow(auth, id);
  const at = new Date(log.timestamp);
  // Outside a product portal's scope (another product's call, or older than it keeps): as if it did not exist.
  if (
    scope &&
    (!log.productId ||
      !scope.productIds.includes(log.productId) ||
      (scope.days && at.getTime() < now().getTime() - scope.days * 86_400_000))
  )
    throw notFound("request log", id);
  const [usage, names] = await Promise.all([
    db.usageEvent.findFirst({
      where: {
        projectId: auth.projectId,
        ...tenantWhere(auth),
        timestamp: at,
        apiKey: log.apiKey,
        method: log.method,
        endpoint: log.endpoint,
        statusCode: log.statusCode,
      },
      select: {
        cost: true,
        billable: true,
        requestSize: true,
        responseSize: true,
        computeTime: true,
        errorType: true,
      },
    }),
    actorNames(auth, [log.apiKey]),
  ]);
  const header = (name: string) => Object.entries(log.response.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1] ?? null;
  return {
    ...log,
    keyName: names[log.apiKey] ?? null,
    // What the response announced (X-Request-Cost: "0.01 USD") when a price rated it.
    announcedCost: header("x-request-cost"),
    usage,
  };
}
