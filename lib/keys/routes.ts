import { z } from "zod";
import { defineRoute } from "@/lib/http/route";
import { IdParams } from "@/lib/schemas/common";
import { ApiKey, ApiKeyCreate, ApiKeyRotate, ApiKeyUpdate } from "@/lib/schemas/api-key";
import type { CollectionQuery } from "@/lib/http/collection-query";
import {
  API_KEY_COLLECTION,
  createKeyForCaller,
  getApiKeyOrThrow,
  listApiKeys,
  revealApiKey,
  revokeApiKey,
  rotateApiKey,
  updateApiKey,
} from "./manage-api-keys";
import { serializeApiKey } from "./serialize-api-key";

const tag = "API keys";
const RotatedKey = ApiKey.extend({
  rotatedFrom: z
    .object({ id: z.string(), expiresAt: z.string().meta({ format: "date-time" }) })
    .meta({ description: "The old key, and when it stops working (the end of the grace period)" }),
}).meta({
  id: "RotatedApiKey",
  description: "The new key (full value shown once) and the old key's new expiry in rotatedFrom",
});

export const apiKeyRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/api-keys",
    summary: "List API keys (masked)",
    tag,
    scope: "api_keys:read",
    collection: API_KEY_COLLECTION,
    response: { kind: "collection", schema: ApiKey },
    handler: ({ auth, query }) => listApiKeys(auth, query as CollectionQuery),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/api-keys",
    summary: "Create an API key (the full key is returned once)",
    tag,
    scope: "api_keys:write",
    body: ApiKeyCreate,
    response: { kind: "single", status: 201, schema: ApiKey },
    handler: ({ auth, body, client }) => createKeyForCaller({ auth, ...client }, body),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/api-keys/{id}",
    summary: "Retrieve an API key (masked)",
    tag,
    scope: "api_keys:read",
    params: IdParams,
    response: { kind: "single", status: 200, schema: ApiKey },
    handler: async ({ auth, params }) => serializeApiKey(await getApiKeyOrThrow(auth, params.id)),
  }),
  defineRoute({
    method: "PATCH",
    path: "/v1/api-keys/{id}",
    summary: "Update an API key's name, scopes, restrictions, rate limit, expiry or metadata",
    tag,
    scope: "api_keys:write",
    params: IdParams,
    body: ApiKeyUpdate,
    response: { kind: "single", status: 200, schema: ApiKey },
    handler: ({ auth, params, body, client }) => updateApiKey({ auth, ...client }, params.id, body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/v1/api-keys/{id}",
    summary: "Revoke an API key (effective on the next request)",
    tag,
    scope: "api_keys:delete",
    params: IdParams,
    response: { kind: "empty" },
    handler: ({ auth, params, client }) => revokeApiKey({ auth, ...client }, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/api-keys/{id}/rotate",
    summary: "Rotate an API key: a new key now, the old one expires after the grace period",
    tag,
    scope: "api_keys:write",
    params: IdParams,
    body: ApiKeyRotate,
    response: { kind: "single", status: 201, schema: RotatedKey },
    handler: ({ auth, params, body, client }) => rotateApiKey({ auth, ...client }, params.id, body.gracePeriodDays),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/api-keys/{id}/reveal",
    summary: "Show once the value of a key made by automatic rotation (secretPending: true)",
    tag,
    scope: "api_keys:write",
    params: IdParams,
    response: { kind: "single", status: 200, schema: ApiKey },
    handler: ({ auth, params, client }) => revealApiKey({ auth, ...client }, params.id),
  }),
];
