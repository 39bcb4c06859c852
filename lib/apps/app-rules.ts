import { db } from "@/lib/db/client";
import { isIdOf } from "@/lib/ids";
import { ApiError } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";
import type { AuthContext } from "@/lib/http/auth-context";
import { APP_TYPE_LIST } from "./app-types";

// The rules of an app's `products` and `slug`. A slug is the app's address (/p/{slug}, /apps/{slug}), unique
// across the deployment; it may not be another business's product slug either, so nobody can open a portal at the
// address a visitor expects for someone else's product.

type Client = Pick<typeof db, "app" | "product">;

/** The business's own products (in the caller's environment), deduplicated; any other id is a 404 naming its place. */
export async function ownProductIds(auth: AuthContext, ids: string[], client: Client = db): Promise<string[]> {
  const unique = [...new Set(ids)];
  const valid = unique.filter((id) => isIdOf("product", id));
  const found = valid.length
    ? await client.product.findMany({ where: { id: { in: valid }, ...tenantWhere(auth) }, select: { id: true } })
    : [];
  const own = new Set(found.map((p) => p.id));
  const index = ids.findIndex((id) => !own.has(id));
  if (index >= 0) {
    // Another business's product is a 404 like an unknown one (its existence is not told), naming the field.
    const id = ids[index];
    throw new ApiError({
      status: 404,
      type: "not_found_error",
      code: "RESOURCE_NOT_FOUND",
      field: `products[${index}]`,
      message: /^[A-Za-z0-9_]{1,64}$/.test(id) ? `No product '${id}' in your business.` : "No such product in your business.",
      suggestion: "An app presents your own products: list them with GET /v1/products.",
    });
  }
  return unique;
}

export const appSlugTaken = (slug: string) =>
  new ApiError({
    status: 409,
    type: "conflict_error",
    code: "ALREADY_EXISTS",
    field: "slug",
    message: `The slug '${slug}' is taken.`,
    suggestion: "Choose another slug.",
  });

/** /apps/{type} shows each type's demo shell, so the types' own slugs (dashboard, crm, …) are no app's address. */
const RESERVED = new Set(APP_TYPE_LIST.map((t) => t.slug));

/**
 * A business's console app (the Developer app that drives its /portal, lib/apps/console-app.ts) is marked by its
 * slug: `console-<business id>-test|live`, one per environment. Nobody else may take such a slug, and the console
 * app keeps its own.
 */
export const CONSOLE_SLUG = /^console-biz-[0-9a-z]{26}-(?:test|live)$/;
export const isConsoleSlug = (slug: string) => CONSOLE_SLUG.test(slug);
export const consoleSlugOf = (businessId: string, environment: "test" | "production") =>
  `console-${businessId.toLowerCase().replace(/_/g, "-")}-${environment === "production" ? "live" : "test"}`;

/** Whether `slug` is free for an app of `businessId` (`appId`: the app being changed, which may keep its own). */
async function slugFree(slug: string, businessId: string, appId: string | null, client: Client): Promise<boolean> {
  if (RESERVED.has(slug) || isConsoleSlug(slug)) return false;
  const [app, product] = await Promise.all([
    client.app.findUnique({ where: { slug }, select: { id: true } }),
    client.product.findUnique({ where: { slug }, select: { businessId: true } }),
  ]);
  return (!app || app.id === appId) && (!product || product.businessId === businessId);
}

export async function checkAppSlug(slug: string, businessId: string, appId: string | null, client: Client = db): Promise<string> {
  if (!(await slugFree(slug, businessId, appId, client))) throw appSlugTaken(slug);
  return slug;
}

export function slugOf(name: string): string {
  const base = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "");
  return base.length >= 3 ? base : `app-${base || "portal"}`;
}

/** `preferred` when free, else the name's slug, then with -2, -3, … */
export async function freeAppSlug(name: string, businessId: string, preferred?: string | null, client: Client = db): Promise<string> {
  if (preferred && (await slugFree(preferred, businessId, null, client))) return preferred;
  const base = slugOf(name);
  for (let n = 1; n < 50; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (await slugFree(candidate, businessId, null, client)) return candidate;
  }
  return `${base}-${Date.now().toString(36)}`;
}

/** Two writes choosing one slug at once: the unique index lets one in. */
export function appSlugRace(e: unknown): never {
  const err = e as { code?: string; meta?: { target?: unknown } };
  if (err.code === "P2002" && JSON.stringify(err.meta?.target ?? "").includes("slug")) throw appSlugTaken("requested");
  throw e;
}
