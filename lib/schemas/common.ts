import { z } from "zod";

// Shapes shared by every resource schema and by the OpenAPI document.

export const Environment = z
  .enum(["test", "production"])
  .meta({ id: "Environment", description: "Test or live data; a key sees only its own environment." });
export const Timestamp = z.string().meta({ description: "ISO 8601 date-time", format: "date-time" });

export const Meta = z
  .object({
    timestamp: Timestamp,
    requestId: z.string().meta({ example: "req_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" }),
    warning: z.string().optional().meta({ description: "A notice about the API version in use (deprecation)." }),
  })
  .meta({ id: "Meta" });

export const Pagination = z
  .object({
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: "Pagination" });

// lib/server/openapi.ts adds the fields each error code declares in the error catalog.
export const ErrorObject = z
  .object({
    type: z.string().meta({ example: "validation_error" }),
    code: z.string().meta({ example: "MISSING_REQUIRED_FIELD" }),
    message: z.string(),
    field: z.string().optional(),
    suggestion: z.string().optional(),
    documentation: z.string().optional(),
  })
  .meta({ description: "The error object; each code adds its own fields (lib/http/error-catalog.ts)" });

// Any string: an id of the wrong shape or length names no resource, so the resource's own lookup answers 404
// (it checks the id's shape before any query), as contract.md asks of every bad id.
export const IdParams = z.object({ id: z.string() });

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: "Deleted" });

/** Free-form labels: at most 50 string keys with short string values (Stripe's metadata rule). */
export const Metadata = z
  .record(z.string().max(40), z.string().max(500))
  .refine((m) => Object.keys(m).length <= 50, "metadata holds at most 50 keys")
  .meta({ id: "Metadata" });

export const shortText = (max = 200) => z.string().trim().min(1, "must not be empty").max(max);
