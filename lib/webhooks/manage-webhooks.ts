import { db, dbNull } from "@/lib/db/client";
import { tenantResource } from "@/lib/db/tenant-resource";
import { now } from "@/lib/clock";
import { isIdOf, newId } from "@/lib/ids";
import { ApiError, invalidField, notFound, stateConflict } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";
import { listCollection } from "@/lib/http/list-collection";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import { emitEvent, withEvents } from "@/lib/events/emit-event";
import { EVENT_TYPES, TEST_EVENT_TYPE, isValidPattern } from "@/lib/events/event-types";
import type { AuthContext } from "@/lib/http/auth-context";
import type { Webhook as WebhookRow, WebhookDelivery as DeliveryRow } from "@/generated/prisma-sqlite";
import type { WebhookCreate, WebhookUpdate } from "@/lib/schemas/webhook";
import { generateSecret } from "./signing";
import { checkUrlTarget } from "./url-safety";
import { wakeWorker } from "./worker";

const SECRET_OVERLAP_MS = 24 * 3_600_000;

export const WEBHOOK_COLLECTION: CollectionSpec = {
  filters: { id: { type: "string" }, url: { type: "string" }, isActive: { type: "boolean" }, createdAt: { type: "date" } },
  sortable: ["createdAt", "url", "id"],
  fields: [
    "url",
    "events",
    "description",
    "secret",
    "isActive",
    "active",
    "headers",
    "metadata",
    "environment",
    "disabledReason",
    "createdAt",
    "updatedAt",
  ],
};

export const DELIVERY_COLLECTION: CollectionSpec = {
  filters: {
    status: { type: "enum", values: ["pending", "success", "failed", "retrying"] },
    event: { type: "string", where: (op, values) => ({ eventType: op === "ne" ? { notIn: values } : { in: values } }) },
    eventId: { type: "string" },
    createdAt: { type: "date" },
  },
  sortable: ["createdAt", "id"],
  fields: [
    "webhookId",
    "eventId",
    "eventType",
    "url",
    "status",
    "attempts",
    "lastAttempt",
    "nextRetry",
    "request",
    "response",
    "error",
    "deliveries",
    "createdAt",
  ],
};

export function serializeWebhook(w: WebhookRow, fullSecret = false) {
  return {
    id: w.id,
    url: w.url,
    events: w.events as string[],
    description: w.description,
    secret: fullSecret ? w.secret : `whsec_…${w.secret.slice(-4)}`,
    isActive: w.isActive,
    active: w.isActive,
    headers: (w.headers as Record<string, string> | null) ?? null,
    metadata: (w.metadata as Record<string, string> | null) ?? null,
    environment: w.environment,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

export function serializeDelivery(d: DeliveryRow) {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    eventType: d.eventType,
    url: d.url,
    status: d.status as "pending",
    attempts: d.attempts,
    lastAttempt: d.lastAttempt?.toISOString() ?? null,
    nextRetry: d.nextRetry?.toISOString() ?? null,
    request: { headers: (d.requestHeaders as Record<string, string> | null) ?? {}, body: d.requestBody },
    response:
      d.responseStatus === null && !d.responseBody
        ? null
        : {
            statusCode: d.responseStatus,
            headers: (d.responseHeaders as Record<string, string> | null) ?? {},
            body: d.responseBody,
            duration: d.responseDuration,
          },
    error: d.lastError,
    deliveries: (d.attemptLog as never[] | null) ?? [],
    createdAt: d.createdAt.toISOString(),
  };
}

async function validateTarget(url: string) {
  const problem = await checkUrlTarget(url);
  if (problem) throw invalidField("url", problem.message, "Use a public http(s) URL that your receiver listens on.");
}

function validateEvents(events: string[]) {
  const bad = events.find((e) => !isValidPattern(e));
  if (bad !== undefined)
    throw invalidField(
      "events",
      `'${bad.slice(0, 100)}' is not an event name or pattern.`,
      `Use '*', a pattern such as 'product.*', or one of: ${EVENT_TYPES.join(", ")}.`,
    );
  return [...new Set(events)];
}

export const getWebhookOrThrow = (auth: AuthContext, id: string) => webhooks.getOrThrow(auth, id);

const webhooks = tenantResource<WebhookRow>({
  model: () => db.webhook,
  idKind: "webhook",
  label: "webhook",
  collection: WEBHOOK_COLLECTION,
  serialize: serializeWebhook,
});

export const listWebhooks = (auth: AuthContext, query: CollectionQuery) => webhooks.list(auth, query);

const resourceData = (w: WebhookRow) => ({ object: "webhook", ...serializeWebhook(w) });

export async function createWebhook(auth: AuthContext, input: WebhookCreate) {
  await validateTarget(input.url);
  const events = validateEvents(input.events);
  const t = now();
  const row = await withEvents(
    async (tx) => {
      const w = await tx.webhook.create({
        data: {
          id: newId("webhook"),
          ...tenantWhere(auth),
          projectId: auth.projectId,
          url: input.url,
          events,
          description: input.description ?? null,
          secret: generateSecret(),
          isActive: input.isActive ?? true,
          headers: input.headers ?? undefined,
          metadata: input.metadata ?? undefined,
          createdAt: t,
          updatedAt: t,
        },
      });
      // Other endpoints hear of the new one; the new one is not sent the news of its own creation.
      await emitEvent({ businessId: auth.businessId, environment: auth.environment, type: "resource.created", data: resourceData(w) }, tx, {
        exceptWebhookId: w.id,
      });
      return w;
    },
    { answer: (w) => serializeWebhook(w, true) },
  );
  return serializeWebhook(row, true);
}

export async function updateWebhook(auth: AuthContext, id: string, patch: WebhookUpdate) {
  const current = await getWebhookOrThrow(auth, id);
  if (patch.url !== undefined) await validateTarget(patch.url);
  const data: Record<string, unknown> = { updatedAt: now() };
  if (patch.url !== undefined) data.url = patch.url;
  if (patch.events !== undefined) data.events = validateEvents(patch.events);
  if (patch.description !== undefined) data.description = patch.description;
  if (patch.isActive !== undefined) {
    data.isActive = patch.isActive;
    // Turning an endpoint back on starts its failure clock afresh.
    if (patch.isActive) Object.assign(data, { disabledReason: null, failingSince: null });
  }
  if (patch.headers !== undefined) data.headers = patch.headers === null ? dbNull : patch.headers;
  if (patch.metadata !== undefined) data.metadata = patch.metadata === null ? dbNull : patch.metadata;
  const row = await withEvents(async (tx) => {
    const w = await tx.webhook.update({ where: { id: current.id }, data });
    const previous = Object.fromEntries(Object.keys(patch).map((k) => [k, (serializeWebhook(current) as Record<string, unknown>)[k]]));
    await emitEvent(
      {
        businessId: auth.businessId,
        environment: auth.environment,
        type: "resource.updated",
        data: resourceData(w),
        previousAttributes: previous,
      },
      tx,
    );
    return w;
  });
  return serializeWebhook(row);
}

export async function deleteWebhook(auth: AuthContext, id: string) {
  const current = await getWebhookOrThrow(auth, id);
  await withEvents(async (tx) => {
    // Its pending deliveries go with it: nobody is listening for them any more.
    await tx.webhookDelivery.deleteMany({ where: { webhookId: current.id, status: { in: ["pending", "retrying"] } } });
    await tx.webhook.delete({ where: { id: current.id } });
    await emitEvent(
      { businessId: auth.businessId, environment: auth.environment, type: "resource.deleted", data: resourceData(current) },
      tx,
    );
  });
}

const rotatedSecretView = (w: WebhookRow) => ({
  ...serializeWebhook(w, true),
  previousSecretExpiresAt: w.previousSecretExpiresAt!.toISOString(),
});

/** A new secret now; the old one keeps signing beside it for 24 hours, so receivers can switch without a gap. */
export async function rotateWebhookSecret(auth: AuthContext, id: string) {
  const current = await getWebhookOrThrow(auth, id);
  const t = now();
  // A write to the endpoint like any other, so it emits resource.updated (with masked secrets only).
  const row = await withEvents(
    async (tx) => {
      const w = await tx.webhook.update({
        where: { id: current.id },
        data: {
          secret: generateSecret(),
          previousSecret: current.secret,
          previousSecretExpiresAt: new Date(t.getTime() + SECRET_OVERLAP_MS),
          updatedAt: t,
        },
      });
      await emitEvent(
        {
          businessId: auth.businessId,
          environment: auth.environment,
          type: "resource.updated",
          data: resourceData(w),
          previousAttributes: { secret: serializeWebhook(current).secret },
        },
        tx,
      );
      return w;
    },
    { answer: rotatedSecretView },
  );
  return rotatedSecretView(row);
}

/** Sends a signed test event to this endpoint alone, whatever it subscribes to. */
export async function sendTestEvent(auth: AuthContext, id: string) {
  const w = await getWebhookOrThrow(auth, id);
  const delivery = await withEvents(
    async (tx) => {
      const event = await emitEvent(
        {
          businessId: auth.businessId,
          environment: auth.environment,
          type: TEST_EVENT_TYPE,
          data: { object: "webhook", id: w.id, message: "This is a test event from the developer platform." },
        },
        tx,
        { webhookId: w.id },
      );
      return tx.webhookDelivery.findFirstOrThrow({ where: { webhookId: w.id, eventId: event.id } });
    },
    { answer: serializeDelivery },
  );
  wakeWorker();
  return serializeDelivery(delivery);
}

export async function listDeliveries(auth: AuthContext, webhookId: string, query: CollectionQuery) {
  const w = await getWebhookOrThrow(auth, webhookId);
  return listCollection({
    spec: DELIVERY_COLLECTION,
    query,
    baseWhere: { webhookId: w.id, ...tenantWhere(auth) },
    from: db.webhookDelivery,
    serialize: (row: DeliveryRow) => serializeDelivery(row),
  });
}

export async function getDeliveryOrThrow(auth: AuthContext, webhookId: string, deliveryId: string) {
  const w = await getWebhookOrThrow(auth, webhookId);
  if (!isIdOf("delivery", deliveryId)) throw notFound("delivery", deliveryId);
  const d = await db.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId: w.id } });
  if (!d) throw notFound("delivery", deliveryId);
  return d;
}

/** Manual retry of a failed or retrying delivery: due now, with a fresh attempt budget if it had failed. */
export async function retryDelivery(auth: AuthContext, webhookId: string, deliveryId: string) {
  const d = await getDeliveryOrThrow(auth, webhookId, deliveryId);
  if (d.status !== "failed" && d.status !== "retrying") {
    throw stateConflict(`A ${d.status} delivery cannot be retried; only failed or retrying ones.`, {
      currentState: d.status,
      allowed: ["failed", "retrying"],
    });
  }
  const t = now();
  const claimed = await db.webhookDelivery.updateMany({
    where: { id: d.id, status: { in: ["failed", "retrying"] }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: t } }] },
    data: { status: "retrying", nextRetry: t, attempts: d.status === "failed" ? 0 : d.attempts, updatedAt: t },
  });
  if (claimed.count === 0)
    throw new ApiError({
      status: 409,
      type: "conflict_error",
      code: "STATE_CONFLICT",
      message: "The delivery is being attempted right now.",
    });
  wakeWorker();
  return serializeDelivery(await db.webhookDelivery.findUniqueOrThrow({ where: { id: d.id } }));
}
