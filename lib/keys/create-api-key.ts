import { db, type Db } from "@/lib/db/client";
import type { Prisma } from "@/generated/prisma-sqlite";
import type { KeyRestrictions } from "@/lib/http/auth-context";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { seal } from "./secret-box";
import { environmentOf, generateKeyValue, hashKey, KEY_PREFIX, type KeyType } from "./key-format";

export interface NewKeyInput {
  businessId: string;
  projectId: string;
  type: KeyType;
  name: string;
  scopes: string[];
  expiresAt?: Date | null;
  rateLimit?: number | null;
  createdBy?: string | null;
  metadata?: Record<string, string> | null;
  restrictions?: KeyRestrictions | null;
  rotation?: Record<string, unknown> | null;
  rotatedFromId?: string | null;
  /** Keep the value sealed until revealed once: a key nobody receives now (automatic rotation, secret-box.ts). */
  sealValue?: boolean;
}

/** Creates a key and returns its full value: the only moment it exists outside the caller's hands. */
export async function createApiKey(input: NewKeyInput, tx: Pick<Db, "apiKey"> = db) {
  const key = generateKeyValue(input.type);
  const t = now();
  const row = await tx.apiKey.create({
    data: {
      id: newId("apiKey"),
      businessId: input.businessId,
      projectId: input.projectId,
      name: input.name,
      keyHash: hashKey(key),
      prefix: KEY_PREFIX[input.type],
      lastFour: key.slice(-4),
      environment: environmentOf(input.type),
      scopes: input.scopes,
      rateLimit: input.rateLimit ?? null,
      expiresAt: input.expiresAt ?? null,
      createdBy: input.createdBy ?? null,
      metadata: input.metadata ?? undefined,
      restrictions: (input.restrictions ?? undefined) as Prisma.InputJsonValue | undefined,
      rotation: (input.rotation ?? undefined) as Prisma.InputJsonValue | undefined,
      rotatedFromId: input.rotatedFromId ?? null,
      pendingSecret: input.sealValue ? seal(key) : null,
      createdAt: t,
      updatedAt: t,
    },
  });
  return { row, key };
}
