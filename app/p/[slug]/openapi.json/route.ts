// GET /p/{slug}/openapi.json?product={id}: the OpenAPI document of a product the portal presents, with the
// product's gateway as its server, for the portal's API reference. Seen by whoever may see the portal.
import { loadProductPortal, gatewayAddress, productOpenApiDocument } from "@/lib/apps/product-portal";
import { getPortalContext } from "@/lib/portal/portal-context";
import { publicBaseUrl } from "@/lib/http/public-base-url";

export const dynamic = "force-dynamic";

const notFound = () => Response.json({ error: { code: "RESOURCE_NOT_FOUND", message: "No such document." } }, { status: 404 });

export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const viewer = await getPortalContext();
  const portal = await loadProductPortal(slug, viewer?.business.id ?? null);
  if (!portal) return notFound();
  const wanted = new URL(req.url).searchParams.get("product");
  const product = wanted ? portal.products.find((p) => p.id === wanted) : portal.products[0];
  if (!product) return notFound();
  const doc = await productOpenApiDocument(product.id, gatewayAddress(portal, product, publicBaseUrl(req)));
  if (!doc) return notFound();
  return Response.json(doc, { headers: { "Cache-Control": "private, max-age=60" } });
}
