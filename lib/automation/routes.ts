import { z } from "zod";
import { defineRoute, type AnyRoute } from "@/lib/http/route";
import { parseCollectionQuery, pickFields, type CollectionQuery } from "@/lib/http/collection-query";
import { IdParams } from "@/lib/schemas/common";
import { KINDS, type KindDef } from "./kinds";
import { listResources, withIdentity } from "./list-resources";
import { getResourceOrThrow } from "./get-resource-or-throw";
import { createResource, deleteResource, updateResource } from "./write-resource";
import { serializeResource } from "./serialize-resource";
import { resolveSchemaName, schemaDocument, schemaIndex, SCHEMA_NAMES } from "./json-schemas";

// The REST API of the automation resources, built from the kinds table: for each kind
//   GET, POST /v1/<path>   and   GET, PATCH, DELETE /v1/<path>/{id}
// with the kind's scopes (<scope>:read, :write, :delete), plus the JSON Schema documents at /v1/schemas.

const GetQuery = z.strictObject({ fields: z.string().optional() });

const article = (word: string) => (/^[aeiou]/.test(word) ? "an" : "a");
const title = (s: string) => s[0].toUpperCase() + s.slice(1);

function kindRoutes(def: KindDef): AnyRoute[] {
  const base = `/v1/${def.path}`;
  const tag = title(def.plural);
  const a = `${article(def.label)} ${def.label}`;
  return [
    defineRoute({
      method: "GET",
      path: base,
      summary: `List ${def.plural}`,
      tag,
      scope: `${def.scope}:read`,
      collection: def.collection,
      response: { kind: "collection", schema: def.record },
      handler: ({ auth, query }) => listResources(auth, def, query as CollectionQuery),
    }),
    defineRoute({
      method: "POST",
      path: base,
      summary: `Create ${a}`,
      tag,
      scope: `${def.scope}:write`,
      body: def.schema,
      response: { kind: "single", status: 201, schema: def.record },
      handler: ({ auth, body }) => createResource(auth, def, body),
    }),
    defineRoute({
      method: "GET",
      path: `${base}/{id}`,
      summary: `Retrieve ${a}`,
      tag,
      scope: `${def.scope}:read`,
      params: IdParams,
      query: GetQuery,
      response: { kind: "single", status: 200, schema: def.record },
      handler: async ({ auth, params, query }) => {
        const { fields } = query as z.infer<typeof GetQuery>;
        const parsed = parseCollectionQuery(new URLSearchParams(fields ? { fields } : {}), def.collection);
        return pickFields(serializeResource(def, await getResourceOrThrow(auth, def, params.id)), withIdentity(parsed.fields));
      },
    }),
    defineRoute({
      method: "PATCH",
      path: `${base}/{id}`,
      summary: def.machine ? `Update ${a} (a status change must follow the ${def.label} state machine)` : `Update ${a}`,
      tag,
      scope: `${def.scope}:write`,
      params: IdParams,
      body: def.update,
      response: { kind: "single", status: 200, schema: def.record },
      handler: ({ auth, params, body }) => updateResource(auth, def, params.id, body),
    }),
    defineRoute({
      method: "DELETE",
      path: `${base}/{id}`,
      summary: `Delete ${a}`,
      tag,
      scope: `${def.scope}:delete`,
      params: IdParams,
      response: { kind: "empty" },
      handler: ({ auth, params }) => deleteResource(auth, def, params.id),
    }),
  ];
}

// Public, like the OpenAPI document that already carries the same schemas: documentation needs no key.
const schemaRoutes: AnyRoute[] = [
  defineRoute({
    method: "GET",
    path: "/v1/schemas",
    summary: "JSON Schemas of every automation resource (public)",
    tag: "Schemas",
    auth: "none",
    response: { kind: "raw", description: "A JSON Schema document with every automation schema under $defs" },
    handler: async ({ baseUrl }) => schemaIndex(baseUrl),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/schemas/{kind}",
    summary: `The JSON Schema of one automation resource (public): ${SCHEMA_NAMES.join(", ")}`,
    tag: "Schemas",
    auth: "none",
    params: z.object({ kind: z.string() }),
    response: { kind: "raw", description: "A JSON Schema (draft 2020-12) document" },
    handler: async ({ baseUrl, params }) => schemaDocument(resolveSchemaName(params.kind), baseUrl),
  }),
];

export const automationRoutes: AnyRoute[] = [...KINDS.flatMap(kindRoutes), ...schemaRoutes];
