import { cache } from "react";
import { getPortalContext } from "@/lib/portal/portal-context";

// The signed-in visitor of a product's portal (null when signed out), read once per request, and the portal's own
// addresses for signing in, signing up and subscribing, so every link and redirect stays under /p/{slug}.

export const visitorFor = cache(() => getPortalContext());

/** `path` when it is a page of this portal (no other site, no other portal), else the portal's landing page. */
export function insidePortal(slug: string, path: string | string[] | undefined): string {
  const base = `/p/${slug}`;
  const p = Array.isArray(path) ? path[0] : path;
  if (!p || !(p === base || p.startsWith(`${base}/`) || p.startsWith(`${base}?`)) || p.includes("//") || p.includes("\\")) return base;
  return p;
}

export const portalPaths = (slug: string) => {
  const base = `/p/${slug}`;
  return {
    home: base,
    keys: `${base}/keys`,
    docs: `${base}/docs`,
    subscribe: (priceId: string) => `${base}/subscribe?price=${encodeURIComponent(priceId)}`,
    signIn: (back: string = base) => `${base}/signin?callbackUrl=${encodeURIComponent(back)}`,
    signUp: (next: string = base) => `${base}/signup?next=${encodeURIComponent(next)}`,
  };
};
