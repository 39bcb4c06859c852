import { z } from "zod";
import { SCOPE_ACTIONS, SCOPE_RESOURCES, isValidScope } from "@/lib/auth/scopes";
import { isAddressOrCidr } from "@/lib/auth/ip-match";
import { isHostPattern } from "@/lib/auth/referrer-match";
import { Environment, Metadata, Timestamp, shortText } from "./common";

export const Scope = z
  .string()
  .max(100)
  .refine(isValidScope, { message: "must be resource:action (read, write, delete), resource:* or *" });

export const KeyRestrictions = z
  .strictObject({
    ipWhitelist: z
      .array(z.string().max(64).refine(isAddressOrCidr, { message: "must be an IPv4/IPv6 address or CIDR range" }))
      .max(100)
      .optional(),
    referrerWhitelist: z
      .array(z.string().max(255).refine(isHostPattern, { message: "must be a host such as example.com or *.example.com" }))
      .max(100)
      .optional(),
    rateLimit: z.number().int().min(1).max(1_000_000).optional().meta({ description: "Requests per minute for this key" }),
  })
  .meta({ id: "KeyRestrictions" });

export const PermissionsObject = z
  .strictObject({
    resources: z
      .array(z.union([z.enum(SCOPE_RESOURCES), z.literal("*")]))
      .min(1)
      .max(SCOPE_RESOURCES.length + 1),
    actions: z.array(z.enum(SCOPE_ACTIONS)).min(1).max(3),
    restrictions: KeyRestrictions.optional(),
  })
  .meta({ id: "KeyPermissions" });

export const RotationSettings = z
  .strictObject({
    strategy: z
      .enum(["manual", "automatic"])
      .default("manual")
      .meta({ description: "automatic: the scheduled job rotates the key gracePeriod days before it is due; manual: notices only" }),
    maxAge: z.number().int().min(1).max(3650).optional().meta({
      description:
        "Days after creation at which the key is due for rotation (notices and automatic rotation count down to it, or to expiresAt if sooner)",
    }),
    gracePeriod: z.number().int().min(0).max(90).optional().meta({ description: "Days both keys work after a rotation (default 7)" }),
    notificationDays: z
      .array(z.number().int().min(1).max(365))
      .max(10)
      .optional()
      .meta({ description: "Days before the due date on which an api_key.expiring event is sent (default [7, 1])" }),
  })
  .meta({ id: "KeyRotationSettings" });

const expiresAt = z.iso
  .datetime({ offset: true })
  .nullable()
  .optional()
  .meta({ description: "ISO 8601 date-time after which the key stops working; null for no expiry" });

export const ApiKeyCreate = z
  .strictObject({
    name: shortText(100),
    type: z
      .enum(["test", "live"])
      .optional()
      .meta({ description: "Defaults to the calling key's type; a key creates keys of its own environment only" }),
    environment: Environment.optional(),
    scopes: z.array(Scope).min(1).max(100).optional(),
    permissions: z.union([z.array(Scope).min(1).max(100), PermissionsObject]).optional(),
    expiresAt,
    expiresInDays: z
      .number("Enter a number of days.")
      .int("Use a whole number of days.")
      .min(1, "A key must last at least 1 day; leave the expiry out for a key that never expires.")
      .max(3650, "Use at most 3650 days (10 years).")
      .optional(),
    rateLimit: z.number().int().min(1).max(1_000_000).nullable().optional(),
    restrictions: KeyRestrictions.optional(),
    metadata: Metadata.optional(),
    rotation: RotationSettings.optional(),
    projectId: z.string().max(64).optional(),
  })
  .meta({ id: "ApiKeyCreate" });

export const ApiKeyUpdate = z
  .strictObject({
    name: shortText(100).optional(),
    scopes: z.array(Scope).min(1).max(100).optional(),
    permissions: z.union([z.array(Scope).min(1).max(100), PermissionsObject]).optional(),
    expiresAt,
    rateLimit: z.number().int().min(1).max(1_000_000).nullable().optional(),
    restrictions: KeyRestrictions.nullable().optional(),
    metadata: Metadata.nullable().optional(),
    rotation: RotationSettings.nullable().optional(),
  })
  .meta({ id: "ApiKeyUpdate" });

export const ApiKeyRotate = z
  .strictObject({
    gracePeriodDays: z
      .number()
      .int()
      .min(0)
      .max(90)
      .optional()
      .meta({ description: "Days the old key keeps working (default: the key's rotation.gracePeriod, else 7)" }),
  })
  .meta({ id: "ApiKeyRotate" });

export const ApiKey = z
  .object({
    id: z.string().meta({ example: "key_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" }),
    name: z.string(),
    key: z.string().meta({ description: "The full key on creation and rotation only; otherwise masked (prefix and last four characters)" }),
    type: z.enum(["test", "live"]),
    prefix: z.enum(["sk_test_", "sk_live_"]),
    environment: Environment,
    status: z.enum(["active", "expired", "revoked"]),
    projectId: z.string(),
    createdBy: z.string().nullable(),
    createdAt: Timestamp,
    lastUsed: Timestamp.nullable(),
    expiresAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
    scopes: z.array(z.string()),
    permissions: z.object({ resources: z.array(z.string()), actions: z.array(z.string()), restrictions: KeyRestrictions.nullable() }),
    rateLimit: z.number().nullable(),
    restrictions: KeyRestrictions.nullable(),
    metadata: z.record(z.string(), z.string()).nullable(),
    rotation: RotationSettings.nullable(),
    rotatedFromId: z.string().nullable(),
    rotatedAt: z.string().nullable().meta({ description: "When this key was rotated (by hand or automatically); null if never" }),
    secretPending: z.boolean().meta({
      description: "True for a key made by automatic rotation whose value has not been revealed yet (POST /v1/api-keys/{id}/reveal)",
    }),
  })
  .meta({ id: "ApiKey" });

export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;
export type ApiKeyUpdate = z.infer<typeof ApiKeyUpdate>;
