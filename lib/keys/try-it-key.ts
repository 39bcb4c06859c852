import { dbNull } from "@/lib/db/client";
import { SCOPE_RESOURCES, grants } from "@/lib/auth/scopes";

// The docs' try-it console calls the API with a key of its own: test data only, one hour, never `*`, and never in
// the user's key lists (the portal's and GET /v1/api-keys), which it would clutter. It is told apart by its
// metadata, which nobody else may set.

export const TRY_IT_PURPOSE = "docs_try_it";
export const TRY_IT_METADATA = { purpose: TRY_IT_PURPOSE } as const;
export const TRY_IT_TTL_MS = 60 * 60 * 1000;

/** Whether metadata claims the try-it purpose (refused from callers: it would hide a key from the lists). */
export const claimsTryItPurpose = (metadata: Record<string, unknown> | null | undefined) => metadata?.purpose === TRY_IT_PURPOSE;

/** The `where` of a key list that leaves try-it keys out (a NULL metadata must stay in, so not a bare NOT). */
export const notTryItKey = { OR: [{ metadata: { equals: dbNull } }, { NOT: { metadata: { equals: TRY_IT_METADATA } } }] };

/**
 * What a try-it key may do: the user's own access to every resource, except making keys and OAuth clients (read
 * only), spelled out per resource so the key is never a `*` key.
 */
export function tryItScopes(held: readonly string[]): string[] {
  const out: string[] = [];
  for (const resource of SCOPE_RESOURCES) {
    const actions = resource === "api_keys" || resource === "oauth_clients" ? ["read"] : ["read", "write", "delete"];
    const allowed = actions.filter((a) => grants(held, `${resource}:${a}`));
    if (allowed.length === 3) out.push(`${resource}:*`);
    else out.push(...allowed.map((a) => `${resource}:${a}`));
  }
  return out;
}
