import { db, databaseProvider, type Db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import type { Prisma } from "@/generated/prisma-sqlite";
import { processSingleton } from "@/lib/process-state";
import { currentCommitHook } from "@/lib/db/commit-hook";
import { databaseAnswered } from "@/lib/db/availability";
import { matches } from "./event-types";

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

export type Tx = Pick<Db, "event" | "webhook" | "webhookDelivery" | "$executeRawUnsafe" | "$queryRawUnsafe">;

type EventRow = Awaited<ReturnType<Db["event"]["create"]>>;

/** The payload receivers get: the event record, with `timestamp` repeating `createdAt`. */
export function eventPayload(e: EventRow) {
  return {
    id: e.id,
    type: e.type,
    createdAt: e.createdAt.toISOString(),
    timestamp: e.createdAt.toISOString(),
    apiVersion: e.apiVersion,
    data: e.data,
    ...(e.previousAttributes ? { previousAttributes: e.previousAttributes } : {}),
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

// The event, the endpoints it goes to and its deliveries are three statements of SQL on every write that emits
// one: as Prisma model queries they cost ~0.65 ms of CPU each (stack.md), the most expensive part of a product
// creation with endpoints subscribed. Dates go in as Date parameters, so the adapter writes them exactly as Prisma
// does; JSON goes in as its text (PostgreSQL casts it to jsonb).
const DELIVERY_COLUMNS = [
  "id",
  "webhookId",
  "eventId",
  "eventType",
  "businessId",
  "environment",
  "url",
  "status",
  "attempts",
  "nextRetry",
  "requestBody",
  "createdAt",
  "updatedAt",
];
const ROWS_PER_INSERT = 500; // 13 parameters a row, well under SQLite's 32,766

function placeholders(pg: boolean, count: number, from: number, casts: Record<number, string> = {}) {
  return Array.from({ length: count }, (_, i) => (pg ? `$${from + i + 1}${casts[i] ? `::${casts[i]}` : ""}` : "?")).join(", ");
}

/**
 * Who gets the event's deliveries: every subscribed active endpoint (the default), `{ webhookId }` that endpoint
 * alone (test events), or `{ exceptWebhookId }` every subscribed one but that (an endpoint's own creation: it
 * is not told about itself).
 */
export type Recipients = { webhookId: string } | { exceptWebhookId: string };

export async function emitEvent(event: NewEvent, tx: Tx = db, recipients?: Recipients) {
  const only = recipients && "webhookId" in recipients ? recipients : undefined;
  const except = recipients && "exceptWebhookId" in recipients ? recipients.exceptWebhookId : undefined;
  const pg = databaseProvider() === "postgresql";
  const t = now();
  const dataText = JSON.stringify(event.data);
  const previousText = event.previousAttributes == null ? null : JSON.stringify(event.previousAttributes);
  // What Prisma's create would have handed back: the JSON as it reads from the column.
  const row: EventRow = {
    id: newId("event"),
    businessId: event.businessId,
    environment: event.environment,
    type: event.type,
    apiVersion: EVENT_API_VERSION,
    data: JSON.parse(dataText),
    previousAttributes: previousText === null ? null : JSON.parse(previousText),
    createdAt: t,
  };
  await tx.$executeRawUnsafe(
    `INSERT INTO "Event" ("id", "businessId", "environment", "type", "apiVersion", "data", "previousAttributes", "createdAt") VALUES (${placeholders(pg, 8, 0, { 5: "jsonb", 6: "jsonb" })})`,
    row.id,
    row.businessId,
    row.environment,
    row.type,
    row.apiVersion,
    dataText,
    previousText,
    t,
  );
  const endpoints = await tx.$queryRawUnsafe<{ id: string; url: string; events: unknown }[]>(
    `SELECT "id", "url", "events" FROM "Webhook" WHERE "businessId" = ${pg ? "$1" : "?"} AND "environment" = ${pg ? "$2" : "?"} AND ${only ? `"id" = ${pg ? "$3" : "?"}` : `"isActive" = true`}`,
    event.businessId,
    event.environment,
    ...(only ? [only.webhookId] : []),
  );
  const patterns = (w: { events: unknown }) => (typeof w.events === "string" ? JSON.parse(w.events) : w.events) as string[];
  const targets = only ? endpoints : endpoints.filter((w) => w.id !== except && matches(event.type, patterns(w)));
  if (targets.length) {
    const body = JSON.stringify(eventPayload(row));
    for (let i = 0; i < targets.length; i += ROWS_PER_INSERT) {
      const chunk = targets.slice(i, i + ROWS_PER_INSERT);
      const params = chunk.flatMap((w) => [
        newId("delivery"),
        w.id,
        row.id,
        row.type,
        row.businessId,
        row.environment,
        w.url,
        "pending",
        0,
        t,
        body,
        t,
        t,
      ]);
      const values = chunk.map((_, j) => `(${placeholders(pg, DELIVERY_COLUMNS.length, j * DELIVERY_COLUMNS.length)})`).join(", ");
      await tx.$executeRawUnsafe(
        `INSERT INTO "WebhookDelivery" (${DELIVERY_COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES ${values}`,
        ...params,
      );
    }
    // Outside a transaction the rows are committed now; inside one, the caller notifies after its commit.
    if (tx === db) notifyDeliveriesCreated();
  }
  return row;
}

/** For events raised on a request's path that must not slow it down (metering): written in the background. */
export function emitEventLater(event: NewEvent): void {
  emitEvent(event).catch((e) => console.error(`event ${event.type} not written`, e));
}

export interface WithEventsOptions<T> {
  /**
   * The request's answer, made from what this transaction returns: declared by a write whose transaction is the last
   * thing its request does, so that an Idempotency-Key's record stores the answer in this same transaction and a
   * retry after a crash replays it (lib/server/idempotency.ts) instead of IDEMPOTENCY_RESULT_LOST.
   */
  answer?: (done: T) => unknown;
}

/**
 * A write and its event in one transaction; deliveries are announced once it has committed. Inside a request with
 * an Idempotency-Key, the key's record is marked in the same transaction (lib/db/commit-hook.ts), with the answer
 * when the write declares it.
 */
export async function withEvents<T>(work: (tx: Prisma.TransactionClient) => Promise<T>, options: WithEventsOptions<T> = {}): Promise<T> {
  const hook = currentCommitHook();
  const result = await db.$transaction(async (tx) => {
    const done = await work(tx);
    if (hook) {
      // `undefined` declares nothing: a write shared by several routes declares only for the one it answers.
      const value = options.answer?.(done);
      await hook.run(tx, value === undefined ? null : { value });
    }
    return done;
  });
  hook?.committed();
  databaseAnswered();
  notifyDeliveriesCreated();
  return result;
}
