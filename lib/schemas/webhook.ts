import { z } from "zod";
import { EVENT_TYPES } from "@/lib/events/event-types";
import { Environment, Metadata, Timestamp } from "./common";

const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
// Headers the platform sets itself (signatures, ids, framing) cannot be overridden by an endpoint's own.
const RESERVED_HEADERS =
  /^(content-type|content-length|host|user-agent|x-webhook-.*|x-event-.*|x-delivery-id|webhook-.*|transfer-encoding|connection)$/i;

export const WebhookHeaders = z
  .record(
    z
      .string()
      .regex(HEADER_NAME, "must be a header name")
      .refine((h) => !RESERVED_HEADERS.test(h), "is set by the platform"),
    z
      .string()
      .max(1000)
      .refine((v) => !/[\r\n]/.test(v), "must be one line"),
  )
  .refine((h) => Object.keys(h).length <= 20, "at most 20 headers")
  .meta({ id: "WebhookHeaders" });

const EventList = z
  .array(z.string().max(100))
  .min(1)
  .max(50)
  .meta({ description: `Event names or patterns: ${EVENT_TYPES.join(", ")}, 'product.*', '*'` });

export const WebhookCreate = z
  .strictObject({
    url: z.string().max(2048),
    events: EventList,
    description: z.string().max(500).optional(),
    isActive: z.boolean().optional(),
    headers: WebhookHeaders.optional(),
    metadata: Metadata.optional(),
  })
  .meta({ id: "WebhookCreate" });

export const WebhookUpdate = z
  .strictObject({
    url: z.string().max(2048).optional(),
    events: EventList.optional(),
    description: z.string().max(500).nullable().optional(),
    isActive: z.boolean().optional(),
    headers: WebhookHeaders.nullable().optional(),
    metadata: Metadata.nullable().optional(),
  })
  .meta({ id: "WebhookUpdate" });

export const Webhook = z
  .object({
    id: z.string().meta({ example: "wh_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" }),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    secret: z.string().meta({ description: "Full on creation and rotate-secret only; otherwise the last four characters" }),
    isActive: z.boolean(),
    active: z.boolean().meta({ description: "The portal's name for isActive" }),
    headers: z.record(z.string(), z.string()).nullable(),
    metadata: z.record(z.string(), z.string()).nullable(),
    environment: Environment,
    disabledReason: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Webhook" });

export const DeliveryAttempt = z.object({
  attempt: z.number(),
  timestamp: Timestamp,
  status: z.number().nullable(),
  durationMs: z.number(),
  error: z.string().nullable(),
  responseHeaders: z
    .record(z.string(), z.string())
    .optional()
    .meta({ description: "What the receiver answered (attempts since issue 20)" }),
  responseBody: z.string().optional().meta({ description: "The first 2 KB of the receiver's answer" }),
});

export const WebhookDelivery = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    url: z.string(),
    status: z.enum(["pending", "success", "failed", "retrying"]),
    attempts: z.number(),
    lastAttempt: Timestamp.nullable(),
    nextRetry: Timestamp.nullable(),
    request: z.object({ headers: z.record(z.string(), z.string()), body: z.string() }),
    response: z
      .object({
        statusCode: z.number().nullable(),
        headers: z.record(z.string(), z.string()),
        body: z.string().nullable(),
        duration: z.number().nullable(),
      })
      .nullable(),
    error: z.string().nullable(),
    deliveries: z.array(DeliveryAttempt),
    createdAt: Timestamp,
  })
  .meta({ id: "WebhookDelivery" });

export const Event = z
  .object({
    id: z.string(),
    type: z.string(),
    createdAt: Timestamp,
    timestamp: Timestamp,
    apiVersion: z.string(),
    data: z.unknown(),
    previousAttributes: z.unknown().optional(),
    environment: Environment,
  })
  .meta({ id: "Event" });

export type WebhookCreate = z.infer<typeof WebhookCreate>;
export type WebhookUpdate = z.infer<typeof WebhookUpdate>;
