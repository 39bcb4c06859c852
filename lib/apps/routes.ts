import { z } from "zod";
import { defineRoute, type AnyRoute, type RouteContext } from "@/lib/http/route";
import { IdParams } from "@/lib/schemas/common";
import { App, AppCreate, AppUpdate } from "@/lib/schemas/app";
import type { CollectionQuery } from "@/lib/http/collection-query";
import { APP_COLLECTION, createApp, deleteApp, getAppOrThrow, listApps, serializeApp, updateApp, type AppCaller } from "./manage-apps";
import { appSchemaDocument, resolveAppType } from "./app-json-schemas";
import { APP_TYPE_NAMES } from "./app-type-names";

const tag = "Apps";

const caller = ({ auth, client }: RouteContext<unknown, unknown, unknown>): AppCaller => ({
  auth,
  ip: client.ip,
  userAgent: client.userAgent,
  actorType: auth.oauth ? "oauth_client" : "api_key",
});

export const appRoutes: AnyRoute[] = [
  defineRoute({
    method: "GET",
    path: "/v1/apps",
    summary: "List apps",
    tag,
    scope: "apps:read",
    collection: APP_COLLECTION,
    response: { kind: "collection", schema: App },
    handler: ({ auth, query }) => listApps(auth, query as CollectionQuery),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/apps",
    summary: "Create an app: a BaseApp and its type's config, validated with the type's defaults applied",
    tag,
    scope: "apps:write",
    body: AppCreate,
    response: { kind: "single", status: 201, schema: App },
    handler: (ctx) => createApp(caller(ctx), ctx.body),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/apps/{id}",
    summary: "Retrieve an app",
    tag,
    scope: "apps:read",
    params: IdParams,
    response: { kind: "single", status: 200, schema: App },
    handler: async ({ auth, params }) => serializeApp(await getAppOrThrow(auth, params.id)),
  }),
  defineRoute({
    method: "PATCH",
    path: "/v1/apps/{id}",
    summary: "Update an app (config, views and shell are merged into the stored ones)",
    tag,
    scope: "apps:write",
    params: IdParams,
    body: AppUpdate,
    response: { kind: "single", status: 200, schema: App },
    handler: (ctx) => updateApp(caller(ctx), ctx.params.id, ctx.body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/v1/apps/{id}",
    summary: "Delete an app",
    tag,
    scope: "apps:delete",
    params: IdParams,
    response: { kind: "empty" },
    handler: (ctx) => deleteApp(caller(ctx), ctx.params.id),
  }),
  // Public, like /v1/schemas: documentation needs no key.
  defineRoute({
    method: "GET",
    path: "/v1/apps/schemas/{type}",
    summary: `The JSON Schema of one app type (public): ${APP_TYPE_NAMES.join(", ")}`,
    tag,
    auth: "none",
    params: z.object({ type: z.string() }),
    response: { kind: "raw", description: "A JSON Schema (draft 2020-12) document" },
    handler: async ({ baseUrl, params }) => appSchemaDocument(resolveAppType(params.type), baseUrl),
  }),
];
