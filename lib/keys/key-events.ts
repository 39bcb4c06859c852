import type { ApiKey as ApiKeyRow } from "@/generated/prisma-sqlite";
import { db } from "@/lib/db/client";
import { emitEvent, type Tx } from "@/lib/events/emit-event";
import { serializeApiKey } from "./serialize-api-key";

/** resource.* (contract.md) and api_key.* events for a key; the data is the masked record, never the secret. */
export function keyEvent(
  tx: Tx | null,
  row: ApiKeyRow,
  type: string,
  extra?: Record<string, unknown>,
  previousAttributes?: Record<string, unknown>,
) {
  return emitEvent(
    {
      businessId: row.businessId,
      environment: row.environment,
      type,
      data: { object: "api_key", ...serializeApiKey(row), ...extra },
      previousAttributes,
    },
    tx ?? db,
  );
}
