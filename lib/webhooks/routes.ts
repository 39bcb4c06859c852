import { z } from "zod";
import { defineRoute } from "@/lib/http/route";
import { IdParams } from "@/lib/schemas/common";
import { Webhook, WebhookCreate, WebhookDelivery, WebhookUpdate } from "@/lib/schemas/webhook";
import type { CollectionQuery } from "@/lib/http/collection-query";
import {
  DELIVERY_COLLECTION, WEBHOOK_COLLECTION, createWebhook, deleteWebhook, getDeliveryOrThrow, getWebhookOrThrow, listDeliveries,
  listWebhooks, retryDelivery, rotateWebhookSecret, sendTestEvent, serializeDelivery, serializeWebhook, updateWebhook,
} from "./manage-webhooks";

const tag = "Webhooks";
const DeliveryParams = z.object({ id: z.string().max(255), deliveryId: z.string().max(255) });
const RotatedSecret = Webhook.extend({ previousSecretExpiresAt: z.string() }).meta({ id: "RotatedWebhookSecret" });

export const webhookRoutes = [
  defineRoute({
    method: "GET", path: "/v1/webhooks", summary: "List webhook endpoints", tag, scope: "webhooks:read",
    collection: WEBHOOK_COLLECTION, response: { kind: "collection", schema: Webhook },
    handler: ({ auth, query }) => listWebhooks(auth, query as CollectionQuery),
  }),
  defineRoute({
    method: "POST", path: "/v1/webhooks", summary: "Create a webhook endpoint (the signing secret is shown once)", tag, scope: "webhooks:write",
    body: WebhookCreate, response: { kind: "single", status: 201, schema: Webhook },
    handler: ({ auth, body }) => createWebhook(auth, body),
  }),
  defineRoute({
    method: "GET", path: "/v1/webhooks/{id}", summary: "Retrieve a webhook endpoint", tag, scope: "webhooks:read",
    params: IdParams, response: { kind: "single", status: 200, schema: Webhook },
    handler: async ({ auth, params }) => serializeWebhook(await getWebhookOrThrow(auth, params.id)),
  }),
  defineRoute({
    method: "PATCH", path: "/v1/webhooks/{id}", summary: "Update a webhook endpoint", tag, scope: "webhooks:write",
    params: IdParams, body: WebhookUpdate, response: { kind: "single", status: 200, schema: Webhook },
    handler: ({ auth, params, body }) => updateWebhook(auth, params.id, body),
  }),
  defineRoute({
    method: "DELETE", path: "/v1/webhooks/{id}", summary: "Delete a webhook endpoint", tag, scope: "webhooks:delete",
    params: IdParams, response: { kind: "empty" },
    handler: ({ auth, params }) => deleteWebhook(auth, params.id),
  }),
  defineRoute({
    method: "POST", path: "/v1/webhooks/{id}/test", summary: "Send a signed test event to this endpoint", tag, scope: "webhooks:write",
    params: IdParams, response: { kind: "single", status: 201, schema: WebhookDelivery },
    handler: ({ auth, params }) => sendTestEvent(auth, params.id),
  }),
  defineRoute({
    method: "POST", path: "/v1/webhooks/{id}/rotate-secret", summary: "Rotate the signing secret (the old one signs too for 24 hours)", tag, scope: "webhooks:write",
    params: IdParams, response: { kind: "single", status: 200, schema: RotatedSecret },
    handler: ({ auth, params }) => rotateWebhookSecret(auth, params.id),
  }),
  defineRoute({
    method: "GET", path: "/v1/webhooks/{id}/deliveries", summary: "List deliveries (filter by status and event)", tag, scope: "webhooks:read",
    params: IdParams, collection: DELIVERY_COLLECTION, response: { kind: "collection", schema: WebhookDelivery },
    handler: ({ auth, params, query }) => listDeliveries(auth, params.id, query as CollectionQuery),
  }),
  defineRoute({
    method: "GET", path: "/v1/webhooks/{id}/deliveries/{deliveryId}", summary: "Retrieve a delivery with its attempts", tag, scope: "webhooks:read",
    params: DeliveryParams, response: { kind: "single", status: 200, schema: WebhookDelivery },
    handler: async ({ auth, params }) => serializeDelivery(await getDeliveryOrThrow(auth, params.id, params.deliveryId)),
  }),
  defineRoute({
    method: "POST", path: "/v1/webhooks/{id}/deliveries/{deliveryId}/retry", summary: "Retry a failed or retrying delivery now", tag, scope: "webhooks:write",
    params: DeliveryParams, response: { kind: "single", status: 200, schema: WebhookDelivery },
    handler: ({ auth, params }) => retryDelivery(auth, params.id, params.deliveryId),
  }),
];
