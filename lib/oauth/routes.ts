import { defineRoute } from "@/lib/http/route";
import { IdParams } from "@/lib/schemas/common";
import { OAuthClient, OAuthClientCreate, OAuthClientUpdate } from "@/lib/schemas/oauth-client";
import type { CollectionQuery } from "@/lib/http/collection-query";
import {
  OAUTH_CLIENT_COLLECTION,
  createOAuthClient,
  deleteOAuthClient,
  getOAuthClientOrThrow,
  listOAuthClients,
  serializeOAuthClient,
  updateOAuthClient,
} from "./manage-clients";

const tag = "OAuth clients";

export const oauthClientRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/oauth-clients",
    summary: "List OAuth clients (secrets masked)",
    tag,
    scope: "oauth_clients:read",
    collection: OAUTH_CLIENT_COLLECTION,
    response: { kind: "collection", schema: OAuthClient },
    handler: ({ auth, query }) => listOAuthClients(auth, query as CollectionQuery),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/oauth-clients",
    summary: "Register an OAuth client (a confidential client's secret is returned once)",
    tag,
    scope: "oauth_clients:write",
    body: OAuthClientCreate,
    response: { kind: "single", status: 201, schema: OAuthClient },
    handler: ({ auth, body, client }) => createOAuthClient({ auth, ...client }, body),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/oauth-clients/{id}",
    summary: "Retrieve an OAuth client",
    tag,
    scope: "oauth_clients:read",
    params: IdParams,
    response: { kind: "single", status: 200, schema: OAuthClient },
    handler: async ({ auth, params }) => serializeOAuthClient(await getOAuthClientOrThrow(auth, params.id)),
  }),
  defineRoute({
    method: "PATCH",
    path: "/v1/oauth-clients/{id}",
    summary: "Update an OAuth client's name, redirect URIs or allowed scopes",
    tag,
    scope: "oauth_clients:write",
    params: IdParams,
    body: OAuthClientUpdate,
    response: { kind: "single", status: 200, schema: OAuthClient },
    handler: ({ auth, params, body, client }) => updateOAuthClient({ auth, ...client }, params.id, body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/v1/oauth-clients/{id}",
    summary: "Delete an OAuth client and revoke every token it holds",
    tag,
    scope: "oauth_clients:delete",
    params: IdParams,
    response: { kind: "empty" },
    handler: ({ auth, params, client }) => deleteOAuthClient({ auth, ...client }, params.id),
  }),
];
