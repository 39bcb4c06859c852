import { now } from "@/lib/clock";
import { grants } from "@/lib/auth/scopes";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import { ApiKeyCreate } from "@/lib/schemas/api-key";
import { API_KEY_COLLECTION, createKeyForCaller, listApiKeys, type Caller } from "./manage-api-keys";
import { TRY_IT_METADATA, TRY_IT_TTL_MS } from "./try-it-key";
import type { serializeApiKey } from "./serialize-api-key";

// Keys as a product's developer portal (/p/{slug}) shows and makes them: a visitor's keys that may call the
// product, and new keys limited to it (`call:<productId>` and nothing else), never a full-access key. The docs'
// try-it gets a short-lived test key of the same kind, marked like the platform docs' try-it keys so no key list
// shows it.

/** The one scope a product key holds. */
export const productCallScope = (productId: string) => `call:${productId}`;

/** Whether a key with `scopes` may call the product: `call:<id>`, `call:*` or an unrestricted `*` key. */
export const mayCallProduct = (scopes: readonly string[], productId: string) => grants(scopes, productCallScope(productId));

/** The caller's keys (its project and environment) that may call the product, newest first, try-it keys left out. */
export async function listProductKeys(auth: AuthContext, productId: string) {
  const page = await listApiKeys(auth, parseCollectionQuery(new URLSearchParams({ limit: "100" }), API_KEY_COLLECTION));
  return (page.data as ReturnType<typeof serializeApiKey>[]).filter((k) => mayCallProduct(k.scopes, productId));
}

/** A key of the caller's environment that may call this product only; `expiresInDays` as the portal's form gives it. */
export async function createProductKey(caller: Caller, productId: string, input: { name: unknown; expiresInDays?: unknown }) {
  const parsed = ApiKeyCreate.parse({
    name: typeof input.name === "string" ? input.name.trim() : input.name,
    scopes: [productCallScope(productId)],
    ...(input.expiresInDays !== undefined ? { expiresInDays: input.expiresInDays } : {}),
  });
  return await createKeyForCaller(caller, parsed);
}

/**
 * The docs' try-it key for one product: test data whatever environment the visitor looks at, `call:<productId>`
 * only, one hour, hidden from key lists. The value is shown once; the browser keeps it for the session.
 */
export async function issueProductTryItKey(caller: Caller, productId: string, productName: string) {
  const test: Caller = { ...caller, auth: { ...caller.auth, environment: "test" } };
  const key = await createKeyForCaller(
    test,
    {
      name: `Docs try-it: ${productName}`.slice(0, 100),
      scopes: [productCallScope(productId)],
      expiresAt: new Date(now().getTime() + TRY_IT_TTL_MS).toISOString(),
      metadata: { ...TRY_IT_METADATA },
    },
    { tryIt: true },
  );
  return {
    id: key.id,
    key: key.key as string,
    expiresAt: key.expiresAt as string,
    scopes: key.scopes as string[],
    environment: "test" as const,
  };
}
