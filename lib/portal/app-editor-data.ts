import "server-only";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { APP_COLLECTION, listApps, type serializeApp } from "@/lib/apps/manage-apps";
import { isConsoleSlug } from "@/lib/apps/app-rules";
import { listProducts } from "@/lib/products/list-products";
import { PRODUCT_COLLECTION } from "@/lib/products/product-collection";
import type { serializeProduct } from "@/lib/products/serialize";
import type { PortalContext } from "./portal-context";

// What the console's Apps pages read: the business's apps (newest change first) with where each one renders, and
// its products (what an app may present), both in the chosen environment.

export type AppView = ReturnType<typeof serializeApp>;
export interface ProductChoice {
  id: string;
  name: string;
}

/** Where an app renders: a Developer app is a product portal, the others are shells. */
export const appHref = (app: { type: string; slug: string }) => (app.type === "Developer" ? `/p/${app.slug}` : `/apps/${app.slug}`);

export async function businessProducts(ctx: PortalContext): Promise<ProductChoice[]> {
  const page = await listProducts(ctx.auth, parseCollectionQuery(new URLSearchParams({ limit: "100", sort: "name" }), PRODUCT_COLLECTION));
  return (page.data as ReturnType<typeof serializeProduct>[]).map((p) => ({ id: p.id, name: p.name }));
}

export async function appsOfBusiness(ctx: PortalContext) {
  const [page, products] = await Promise.all([
    listApps(ctx.auth, parseCollectionQuery(new URLSearchParams({ limit: "100", sort: "-updatedAt" }), APP_COLLECTION)),
    businessProducts(ctx),
  ]);
  const apps = (page.data as AppView[]).map((a) => ({ ...a, console: isConsoleSlug(a.slug), href: appHref(a) }));
  return { apps, products };
}
