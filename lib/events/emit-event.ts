import { db, type Db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import type { Prisma } from "@/generated/prisma-sqlite";

// Events are rows in the Event table (the outbox webhook delivery reads). Pass a transaction client to write
// an event together with the change it reports: no event without its write, no write without its event.

export const EVENT_API_VERSION = "v1";

export interface NewEvent {
  businessId: string;
  environment: string;
  type: string;
  data: Record<string, unknown>;
  previousAttributes?: Record<string, unknown> | null;
}

type Tx = Pick<Db, "event">;

export async function emitEvent(event: NewEvent, tx: Tx = db) {
  return tx.event.create({
    data: {
      id: newId("event"), businessId: event.businessId, environment: event.environment, type: event.type,
      apiVersion: EVENT_API_VERSION, data: event.data as Prisma.InputJsonValue,
      previousAttributes: (event.previousAttributes ?? undefined) as Prisma.InputJsonValue | undefined, createdAt: now(),
    },
  });
}

/** For events raised on a request's path that must not slow it down (metering): written in the background. */
export function emitEventLater(event: NewEvent): void {
  emitEvent(event).catch((e) => console.error(`event ${event.type} not written`, e));
}
