import { ApiError } from "@/lib/http/errors";
import { EVENT_TYPES, matches } from "@/lib/events/event-types";
import type { LogScope } from "@/lib/usage/log-search";
import { loadProductPortal, viewEnabled, type ProductPortal } from "./product-portal";

// The data a product's portal may read for its signed-in visitor: the portal's products only, and only while the
// view that shows it is switched on. The portal's JSON reads (/api/portal/logs?portal=…) check this on the server,
// so a visitor's browser cannot widen a portal's view by changing the query.

export interface PortalScope {
  portal: ProductPortal;
  productIds: string[];
}

export async function portalScope(slug: string, viewerBusinessId: string, view: "usage" | "logs" | "webhooks"): Promise<PortalScope> {
  const portal = await loadProductPortal(slug, viewerBusinessId);
  if (!portal || !viewEnabled(portal.app, view))
    throw new ApiError({
      status: 404,
      type: "not_found_error",
      code: "RESOURCE_NOT_FOUND",
      field: "portal",
      message: `No product portal '${slug.replace(/[^a-z0-9-]/g, "").slice(0, 63)}' with a ${view} view.`,
    });
  return { portal, productIds: portal.products.map((p) => p.id) };
}

/** The log scope of `?portal=slug` (its products, its `retentionDays`), or none without the parameter. */
export async function portalLogScope(slug: string | null, viewerBusinessId: string): Promise<LogScope | undefined> {
  if (slug === null) return undefined;
  const { portal, productIds } = await portalScope(slug, viewerBusinessId, "logs");
  return { productIds, days: portal.app.views.logs.retentionDays };
}

/** The events a product portal's webhooks view offers: those about the visitor's subscription and its payments. */
export const PORTAL_WEBHOOK_EVENTS = EVENT_TYPES.filter((t) => t.startsWith("subscription.") || t.startsWith("payment."));

/** Whether an endpoint receives any of those events (its patterns match one): the endpoints the view lists. */
export const receivesPortalEvents = (patterns: readonly string[]) => PORTAL_WEBHOOK_EVENTS.some((t) => matches(t, patterns));
