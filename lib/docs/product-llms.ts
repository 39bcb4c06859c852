import { gatewayAddress, loadProductPortal, portalViews, type PortalProduct } from "@/lib/apps/product-portal";
import { GUIDES } from "./guides";
import { productLlmsTxt, type PlanText } from "./llms-txt";

// GET /p/{slug}/llms.txt's data: the portal as an anonymous visitor sees it (loadProductPortal, as the portal's
// pages read it), so a draft portal or a product that is not public is a 404 here, whoever asks. The plans are
// worded by the caller with the product page's own words (components/marketplace/price-text.ts, which lib/ may
// not import), so the file and the pricing table cannot disagree.

export type DescribePlan = (price: PortalProduct["prices"][number]) => PlanText;

export async function productLlmsTxtFor(slug: string, base: string, describePlan: DescribePlan): Promise<string | null> {
  const portal = await loadProductPortal(slug, null);
  if (!portal || portal.products.length === 0) return null;
  const several = portal.products.length > 1;
  return productLlmsTxt({
    base,
    portalSlug: portal.slug,
    title: portal.app.name,
    summary: portal.app.description ?? null,
    docsView: portalViews(portal.app).includes("docs"),
    guides: GUIDES,
    products: portal.products.map((p) => ({
      name: p.name,
      slug: p.slug,
      description: p.description,
      provider: p.provider.name,
      gateway: gatewayAddress(portal, p, base),
      openapiUrl:
        p.api && (p.api.openapiUrl || p.api.hasOpenapiDocument)
          ? `${base}/p/${portal.slug}/openapi.json${several ? `?product=${encodeURIComponent(p.id)}` : ""}`
          : null,
      plans: p.prices.map(describePlan),
      features: p.features.map((f) => ({ name: f.name, description: f.description ?? null })),
    })),
  });
}
