import { db } from "@/lib/db/client";
import { tenantResource } from "@/lib/db/tenant-resource";
import { defineRoute } from "@/lib/http/route";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import { IdParams } from "@/lib/schemas/common";
import { Event } from "@/lib/schemas/webhook";
import type { Event as EventRow } from "@/generated/prisma-sqlite";
import { eventPayload } from "./emit-event";

export const EVENT_COLLECTION: CollectionSpec = {
  filters: { id: { type: "string" }, type: { type: "string" }, createdAt: { type: "date" } },
  sortable: ["createdAt", "id"],
  fields: ["type", "createdAt", "timestamp", "apiVersion", "data", "previousAttributes", "environment"],
};

const serializeEvent = (e: EventRow) => ({ ...eventPayload(e), environment: e.environment });

const events = tenantResource<EventRow>({
  model: () => db.event,
  idKind: "event",
  label: "event",
  collection: EVENT_COLLECTION,
  serialize: serializeEvent,
});

/** A page of the business's events in the caller's environment (GET /v1/events and the apps' activity panels). */
export const listEvents = (auth: AuthContext, query: CollectionQuery) => events.list(auth, query);

export const eventRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/events",
    summary: "List events (filter by type)",
    tag: "Events",
    scope: "events:read",
    collection: EVENT_COLLECTION,
    response: { kind: "collection", schema: Event },
    handler: ({ auth, query }) => listEvents(auth, query as CollectionQuery),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/events/{id}",
    summary: "Retrieve an event",
    tag: "Events",
    scope: "events:read",
    params: IdParams,
    response: { kind: "single", status: 200, schema: Event },
    handler: async ({ auth, params }) => serializeEvent(await events.getOrThrow(auth, params.id)),
  }),
];
