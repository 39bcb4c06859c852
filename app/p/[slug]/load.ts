import { cache } from "react";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { baseUrlFor } from "@/lib/http/public-base-url";
import { loadProductPortal } from "@/lib/apps/product-portal";
import { getPortalContext } from "@/lib/portal/portal-context";

// One read of the portal per request, shared by the layout and the page (React's cache). Unknown, or a draft seen
// by anyone but its business: the 404 page.

export const portalFor = cache(async (slug: string) => {
  const viewer = await getPortalContext();
  const portal = await loadProductPortal(decodeURIComponent(slug), viewer?.business.id ?? null);
  if (!portal) notFound();
  return { portal, signedIn: viewer !== null };
});

/** The origin the visitor used (PUBLIC_BASE_URL when set), for the gateway address shown in docs. */
export async function requestOrigin(): Promise<string> {
  const h = await headers();
  const protocol = h.get("x-forwarded-proto") === "https" ? "https:" : "http:";
  return baseUrlFor(protocol, h.get("host"), "http://localhost");
}
