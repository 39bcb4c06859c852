import { cache } from "react";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { baseUrlFor } from "@/lib/http/public-base-url";
import { loadProductPortal, viewEnabled } from "@/lib/apps/product-portal";
import { productSubscriptions } from "@/lib/billing/product-usage";
import { getPortalContext } from "@/lib/portal/portal-context";

// One read of the portal per request, shared by the layout and the page (React's cache). Unknown, or a draft seen
// by anyone but its business: the 404 page.

export const portalFor = cache(async (slug: string) => {
  const viewer = await getPortalContext();
  const portal = await loadProductPortal(decodeURIComponent(slug), viewer?.business.id ?? null);
  if (!portal) notFound();
  return { portal, signedIn: viewer !== null, viewer };
});

/** The origin the visitor used (PUBLIC_BASE_URL when set), for the gateway address shown in docs. */
export async function requestOrigin(): Promise<string> {
  const h = await headers();
  const protocol = h.get("x-forwarded-proto") === "https" ? "https:" : "http:";
  return baseUrlFor(protocol, h.get("host"), "http://localhost");
}

/**
 * A view of the signed-in visitor's data in this portal (usage, logs, webhooks, settings): a 404 when the app
 * switches the view off; otherwise the visitor (null when signed out) and their subscriptions to its products.
 */
export async function visitorView(slug: string, view: "usage" | "logs" | "webhooks" | "settings" | "overview") {
  const { portal, viewer } = await portalFor(slug);
  if (!viewEnabled(portal.app, view)) notFound();
  const productIds = portal.products.map((p) => p.id);
  const subscriptions = viewer ? await productSubscriptions(viewer.auth, productIds) : [];
  return {
    portal,
    viewer,
    productIds,
    subscriptions,
    current: subscriptions.filter((s) => s.current),
    productNames: portal.products.map((p) => p.name).join(", ") || portal.app.name,
  };
}
