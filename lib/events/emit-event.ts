import { db, type Db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import type { Prisma } from "@/generated/prisma-sqlite";
import { matches } from "./event-types";
import { processSingleton } from "@/lib/process-state";

// Events are rows in the Event table, and each one fans out into one delivery per subscribed, active endpoint.
// Pass the transaction of the change the event reports: the change, its event and its deliveries commit
// together or not at all (an outbox). The delivery worker picks the deliveries up after the commit.

export const EVENT_API_VERSION = "v1";

export interface NewEvent {
  businessId: string;
  environment: string;
  type: string;
  data: Record<string, unknown>;
  previousAttributes?: Record<string, unknown> | null;
}

export type Tx = Pick<Db, "event" | "webhook" | "webhookDelivery">;

type EventRow = Awaited<ReturnType<Db["event"]["create"]>>;

/** The payload receivers get: the event record, with `timestamp` repeating `createdAt`. */
export function eventPayload(e: EventRow) {
  return {
    id: e.id, type: e.type, createdAt: e.createdAt.toISOString(), timestamp: e.createdAt.toISOString(), apiVersion: e.apiVersion,
    data: e.data, ...(e.previousAttributes ? { previousAttributes: e.previousAttributes } : {}),
  };
}

const listeners = processSingleton("delivery-listeners", () => new Set<() => void>());

/** The in-process worker subscribes here to start delivering at once instead of at its next poll. */
export function onDeliveriesCreated(listener: () => void): void {
  listeners.add(listener);
}

export function notifyDeliveriesCreated(): void {
  for (const l of listeners) l();
}

export async function emitEvent(event: NewEvent, tx: Tx = db, only?: { webhookId: string }) {
  const t = now();
  const row = await tx.event.create({
    data: {
      id: newId("event"), businessId: event.businessId, environment: event.environment, type: event.type,
      apiVersion: EVENT_API_VERSION, data: event.data as Prisma.InputJsonValue,
      previousAttributes: (event.previousAttributes ?? undefined) as Prisma.InputJsonValue | undefined, createdAt: t,
    },
  });
  const endpoints = await tx.webhook.findMany({
    where: { businessId: event.businessId, environment: event.environment, ...(only ? { id: only.webhookId } : { isActive: true }) },
    select: { id: true, url: true, events: true },
  });
  const targets = only ? endpoints : endpoints.filter((w) => matches(event.type, w.events as string[]));
  if (targets.length) {
    const body = JSON.stringify(eventPayload(row));
    await tx.webhookDelivery.createMany({
      data: targets.map((w) => ({
        id: newId("delivery"), webhookId: w.id, eventId: row.id, eventType: row.type, businessId: row.businessId,
        environment: row.environment, url: w.url, status: "pending", attempts: 0, nextRetry: t, requestBody: body, createdAt: t, updatedAt: t,
      })),
    });
    // Outside a transaction the rows are committed now; inside one, the caller notifies after its commit.
    if (tx === db) notifyDeliveriesCreated();
  }
  return row;
}

/** For events raised on a request's path that must not slow it down (metering): written in the background. */
export function emitEventLater(event: NewEvent): void {
  emitEvent(event).catch((e) => console.error(`event ${event.type} not written`, e));
}

/** A write and its event in one transaction; deliveries are announced once it has committed. */
export async function withEvents<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  const result = await db.$transaction((tx) => work(tx));
  notifyDeliveriesCreated();
  return result;
}
