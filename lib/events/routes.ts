import { db } from "@/lib/db/client";
import { defineRoute } from "@/lib/http/route";
import { isIdOf } from "@/lib/ids";
import { notFound } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";
import { listCollection } from "@/lib/http/list-collection";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import { IdParams } from "@/lib/schemas/common";
import { Event } from "@/lib/schemas/webhook";
import type { Event as EventRow } from "@/generated/prisma-sqlite";
import { eventPayload } from "./emit-event";

const EVENT_COLLECTION: CollectionSpec = {
  filters: { id: { type: "string" }, type: { type: "string" }, createdAt: { type: "date" } },
  sortable: ["createdAt", "id"],
  fields: ["type", "createdAt", "timestamp", "apiVersion", "data", "previousAttributes", "environment"],
};

const serializeEvent = (e: EventRow) => ({ ...eventPayload(e), environment: e.environment });

export const eventRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/events",
    summary: "List events (filter by type)",
    tag: "Events",
    scope: "events:read",
    collection: EVENT_COLLECTION,
    response: { kind: "collection", schema: Event },
    handler: ({ auth, query }) =>
      listCollection({
        spec: EVENT_COLLECTION,
        query: query as CollectionQuery,
        baseWhere: tenantWhere(auth),
        from: db.event,
        serialize: (row: EventRow) => serializeEvent(row),
      }),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/events/{id}",
    summary: "Retrieve an event",
    tag: "Events",
    scope: "events:read",
    params: IdParams,
    response: { kind: "single", status: 200, schema: Event },
    handler: async ({ auth, params }) => {
      const e = isIdOf("event", params.id) ? await db.event.findFirst({ where: { id: params.id, ...tenantWhere(auth) } }) : null;
      if (!e) throw notFound("event", params.id);
      return serializeEvent(e);
    },
  }),
];
