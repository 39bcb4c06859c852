import { z } from "zod";
import { defineRoute } from "@/lib/http/route";
import { listInMemory } from "@/lib/http/list-collection";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import { now } from "@/lib/clock";
import { VersionRecord, effectiveStatus, versionRegistry } from "./registry";

const VersionView = VersionRecord.extend({
  effectiveStatus: z.enum(["beta", "stable", "deprecated", "sunset"]),
  lifecycle: z.record(z.string(), z.unknown()),
}).meta({ id: "ApiVersion" });

/** A version record plus its lifecycle in the spec's three stages. */
function view(record: VersionRecord, at: Date) {
  return {
    ...record,
    effectiveStatus: effectiveStatus(record, at),
    lifecycle: {
      beta: { releaseDate: record.releaseDate, features: record.features, breakingChanges: record.breakingChanges },
      stable:
        record.status === "beta"
          ? null
          : { releaseDate: record.releaseDate, supportUntil: record.supportUntil ?? record.sunsetDate ?? null },
      deprecated:
        record.status === "deprecated" || record.deprecationDate
          ? {
              announcedDate: record.deprecationDate ?? null,
              sunsetDate: record.sunsetDate ?? null,
              migrationGuide: record.migrationGuide ?? null,
              replacement: record.replacement ?? null,
            }
          : null,
    },
  };
}

/** The registry's versions, a collection like every other (limit, offset, cursor), newest release first. */
const VERSION_COLLECTION: CollectionSpec = { filters: {}, sortable: ["releaseDate", "version"], defaultSort: "-releaseDate", fields: [] };

export const versionRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/versions",
    summary: "List API versions and their lifecycle",
    tag: "Versions",
    scope: "versions:read",
    collection: VERSION_COLLECTION,
    response: { kind: "collection", schema: VersionView },
    handler: async ({ query }) => {
      const at = now();
      const rows = [...versionRegistry().values()].map((r) => view(r, at));
      return listInMemory(rows, query as CollectionQuery, (r) => ({ id: r.version, version: r.version, releaseDate: r.releaseDate }));
    },
  }),
];
