import { z } from "zod";
import { db } from "@/lib/db/client";
import { defineRoute } from "@/lib/http/route";
import { invalidParameter, notFound } from "@/lib/http/errors";
import { listCollection } from "@/lib/http/list-collection";
import { tenantWhere } from "@/lib/http/tenant";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import { IdParams, Timestamp } from "@/lib/schemas/common";
import type { RequestLog as LogRow, UsageEvent as UsageRow } from "@/generated/prisma-sqlite";
import type { AuthContext } from "@/lib/http/auth-context";
import { usageMetrics, type Period } from "./metrics";
import { usageQuota } from "./quota";
import { callOrigin, callOriginFields } from "./call-origin";

const METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE"] as const;

const trafficFilters = {
  id: { type: "string" as const },
  method: { type: "enum" as const, values: METHODS },
  endpoint: { type: "string" as const },
  statusCode: { type: "integer" as const },
  latency: { type: "number" as const },
  apiKey: { type: "string" as const },
  timestamp: { type: "date" as const },
};

// Product calls counted without an HTTP request of their own: a provider's key verification, a meter event.
const USAGE_METHODS = [...METHODS, "VERIFY", "METER"] as const;

export const USAGE_COLLECTION: CollectionSpec = {
  filters: {
    ...trafficFilters,
    method: { type: "enum", values: USAGE_METHODS },
    billable: { type: "boolean" },
    errorType: { type: "string" },
    productId: { type: "string" },
    subscriptionId: { type: "string" },
  },
  sortable: ["timestamp", "latency", "id"],
  defaultSort: "-timestamp",
  fields: [
    "timestamp",
    "apiKey",
    "userId",
    "method",
    "endpoint",
    "path",
    "statusCode",
    "errorType",
    "latency",
    "requestSize",
    "responseSize",
    "computeTime",
    "cost",
    "billable",
    "ip",
    "userAgent",
    "region",
    "projectId",
    "environment",
    "productId",
    "subscriptionId",
    "quantity",
    "quantities",
  ],
};

export const LOG_COLLECTION: CollectionSpec = {
  filters: { ...trafficFilters, path: { type: "string" }, ip: { type: "string" }, productId: { type: "string" } },
  sortable: ["timestamp", "latency", "id"],
  defaultSort: "-timestamp",
  fields: [
    "timestamp",
    "method",
    "endpoint",
    "path",
    "statusCode",
    "latency",
    "ip",
    "userAgent",
    "apiKey",
    "productId",
    "request",
    "response",
  ],
  search: (terms) => ({
    AND: terms.map((t) => ({ OR: [{ path: { contains: t } }, { id: { contains: t } }, { endpoint: { contains: t } }] })),
  }),
};

export function serializeUsage(u: UsageRow) {
  return {
    id: u.id,
    timestamp: u.timestamp.toISOString(),
    apiKey: u.apiKey,
    userId: u.userId,
    method: u.method,
    endpoint: u.endpoint,
    path: u.path,
    statusCode: u.statusCode,
    errorType: u.errorType,
    latency: u.latency,
    requestSize: u.requestSize,
    responseSize: u.responseSize,
    computeTime: u.computeTime,
    cost: u.cost,
    billable: u.billable,
    ip: u.ip,
    userAgent: u.userAgent,
    region: u.region,
    projectId: u.projectId,
    environment: u.environment,
    productId: u.productId,
    ...callOrigin(u.endpoint, u.path),
    subscriptionId: u.subscriptionId,
    quantity: u.quantity,
    quantities: (u.quantities ?? null) as Record<string, number> | null,
  };
}

export function serializeLog(l: LogRow, withBodies: boolean) {
  return {
    id: l.id,
    timestamp: l.timestamp.toISOString(),
    method: l.method,
    endpoint: l.endpoint,
    path: l.path,
    statusCode: l.statusCode,
    latency: l.latency,
    ip: l.ip,
    userAgent: l.userAgent,
    apiKey: l.apiKey,
    productId: l.productId,
    ...callOrigin(l.endpoint, l.path),
    request: { headers: l.requestHeaders as Record<string, string>, ...(withBodies ? { body: l.requestBody } : {}) },
    response: { headers: l.responseHeaders as Record<string, string>, ...(withBodies ? { body: l.responseBody } : {}) },
  };
}

export function listUsageEvents(auth: AuthContext, query: CollectionQuery) {
  return listCollection({
    spec: USAGE_COLLECTION,
    query,
    baseWhere: { projectId: auth.projectId, ...tenantWhere(auth) },
    from: db.usageEvent,
    serialize: (row: UsageRow) => serializeUsage(row),
  });
}

export function listLogs(auth: AuthContext, query: CollectionQuery) {
  return listCollection({
    spec: LOG_COLLECTION,
    query,
    baseWhere: { projectId: auth.projectId, ...tenantWhere(auth) },
    from: db.requestLog,
    serialize: (row: LogRow) => serializeLog(row, false),
  });
}

export async function getLogOrThrow(auth: AuthContext, id: string) {
  const row = /^req_[0-9A-HJKMNP-TV-Z]{26}$/.test(id)
    ? await db.requestLog.findFirst({ where: { id, projectId: auth.projectId, ...tenantWhere(auth) } })
    : null;
  if (!row) throw notFound("request log", id);
  return serializeLog(row, true);
}

const UsageEvent = z
  .object({
    id: z.string(),
    timestamp: Timestamp,
    apiKey: z.string(),
    userId: z.string().nullable(),
    method: z.string(),
    endpoint: z.string(),
    path: z.string(),
    statusCode: z.number(),
    errorType: z.string().nullable(),
    latency: z.number(),
    requestSize: z.number(),
    responseSize: z.number(),
    computeTime: z.number().nullable(),
    cost: z.number().nullable(),
    billable: z.boolean(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    region: z.string().nullable(),
    projectId: z.string(),
    environment: z.string(),
    productId: z.string().nullable().meta({ description: "A product call's product; null for calls of the platform's own API." }),
    ...callOriginFields,
    subscriptionId: z.string().nullable().meta({ description: "The subscription that rates the product call." }),
    quantity: z.number().int().meta({ description: "Units the event counts (a meter event's quantity; 1 for a call)." }),
    quantities: z
      .record(z.string(), z.number())
      .nullable()
      .meta({
        description:
          "What a metered call measured, per metric of its price (`input_tokens`, `bytes_out`, …), in the metric's base units; null when the price meters nothing but the call.",
        example: { input_tokens: 31415, output_tokens: 27182 },
      }),
  })
  .meta({ id: "UsageEvent" });

const Traffic = z.object({ headers: z.record(z.string(), z.string()), body: z.string().nullable().optional() });
const RequestLog = z
  .object({
    id: z.string(),
    timestamp: Timestamp,
    method: z.string(),
    endpoint: z.string(),
    path: z.string(),
    statusCode: z.number(),
    latency: z.number(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    apiKey: z.string(),
    productId: z.string().nullable().meta({ description: "A gateway call's product; null for calls of the platform's own API." }),
    ...callOriginFields,
    request: Traffic,
    response: Traffic,
  })
  .meta({ id: "RequestLog" });

const dateParam = z.string().refine((v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), "must be an ISO 8601 date");
const MetricsQuery = z.strictObject({
  period: z.enum(["hour", "day", "week", "month"]).default("day"),
  from: dateParam.optional(),
  to: dateParam.optional(),
});

const Bucket = z.object({
  start: Timestamp,
  end: Timestamp,
  requests: z.number(),
  successful: z.number(),
  failed: z.number(),
  successRate: z.number(),
  errorRate: z.number(),
  averageLatency: z.number().nullable(),
  p50Latency: z.number().nullable(),
  p95Latency: z.number().nullable(),
  p99Latency: z.number().nullable(),
});
const UsageMetrics = z
  .object({
    period: z.string(),
    from: Timestamp,
    to: Timestamp,
    totalRequests: z.number(),
    successfulRequests: z.number(),
    failedRequests: z.number(),
    successRate: z.number(),
    errorRate: z.number(),
    averageLatency: z.number().nullable(),
    p50Latency: z.number().nullable(),
    p95Latency: z.number().nullable(),
    p99Latency: z.number().nullable(),
    errorsByType: z.record(z.string(), z.number()),
    errorsByEndpoint: z.record(z.string(), z.number()),
    requestsByEndpoint: z.record(z.string(), z.number()),
    bandwidthUsed: z.number(),
    computeTime: z.number(),
    storageUsed: z.number().nullable(),
    uniqueUsers: z.number(),
    activeAPIKeys: z.number(),
    billableRequests: z.number(),
    quotaUsed: z.number().nullable(),
    billingAmount: z.number(),
    series: z.array(Bucket),
  })
  .meta({ id: "UsageMetrics" });

const UsageQuota = z
  .object({
    limit: z.number().nullable(),
    used: z.number(),
    remaining: z.number().nullable(),
    percentage: z.number().nullable(),
    allowed: z.boolean(),
    period: z.literal("month"),
    resets: Timestamp,
    notifyAt: z.array(z.number()),
    plan: z.string(),
    blocksAtLimit: z.boolean(),
    alerts: z.array(z.object({ threshold: z.number(), used: z.number(), reachedAt: Timestamp })),
  })
  .meta({ id: "UsageQuota" });

export const usageRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/usage",
    summary: "List usage events (one per authenticated request)",
    tag: "Usage",
    scope: "usage:read",
    collection: USAGE_COLLECTION,
    response: { kind: "collection", schema: UsageEvent },
    handler: ({ auth, query }) => listUsageEvents(auth, query as CollectionQuery),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/usage/metrics",
    summary: "Usage metrics and a time series for a period (hour, day, week, month)",
    tag: "Usage",
    scope: "usage:read",
    query: MetricsQuery,
    response: { kind: "single", status: 200, schema: UsageMetrics },
    handler: ({ auth, query }) => {
      const q = query as z.infer<typeof MetricsQuery>;
      const from = q.from ? new Date(q.from) : undefined;
      const to = q.to ? new Date(q.to) : undefined;
      if (from && to && from > to) throw invalidParameter("from", "'from' is after 'to'.");
      if (from && to && to.getTime() - from.getTime() > 400 * 86_400_000)
        throw invalidParameter("from", "A range may span at most 400 days.");
      return usageMetrics(auth, q.period as Period, { from, to });
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/usage/quota",
    summary: "The project's monthly request quota",
    tag: "Usage",
    scope: "usage:read",
    response: { kind: "single", status: 200, schema: UsageQuota },
    handler: ({ auth }) => usageQuota(auth),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/logs",
    summary: "List request logs (headers; bodies on the single log)",
    tag: "Logs",
    scope: "logs:read",
    collection: LOG_COLLECTION,
    response: { kind: "collection", schema: RequestLog },
    handler: ({ auth, query }) => listLogs(auth, query as CollectionQuery),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/logs/{id}",
    summary: "Retrieve a request log with request and response headers and bodies",
    tag: "Logs",
    scope: "logs:read",
    params: IdParams,
    response: { kind: "single", status: 200, schema: RequestLog },
    handler: ({ auth, params }) => getLogOrThrow(auth, params.id),
  }),
];
