import { gatewayAddress, loadProductPortal, portalViews, productOpenApiDocument } from "@/lib/apps/product-portal";
import { mdBlocks } from "./markdown-text";
import { openApiToMarkdown } from "./openapi-markdown";

// /p/{slug}/docs.md: what the portal's Documentation page shows, as Markdown: for each product it presents, the
// gateway address, how to authenticate and every operation of its OpenAPI document (the one /p/{slug}/openapi.json
// serves, with the gateway as its server). Seen by whoever may see the page: null (a 404) where the page is one.

export async function productDocsMarkdown(slug: string, viewerBusinessId: string | null, origin: string): Promise<string | null> {
  const portal = await loadProductPortal(slug, viewerBusinessId);
  if (!portal || !portalViews(portal.app).includes("docs") || portal.products.length === 0) return null;
  const sections = await Promise.all(
    portal.products.map(async (product) => {
      const gateway = gatewayAddress(portal, product, origin);
      const doc = product.api ? await productOpenApiDocument(product.id, gateway) : null;
      const auth = `Calls need an API key of a subscription to ${product.name}: send it as \`Authorization: Bearer sk_test_…\` (or \`X-API-Key\`).`;
      if (!doc)
        return mdBlocks([
          `## ${product.name}`,
          `Base URL: \`${gateway}\``,
          auth,
          `${product.name} has no OpenAPI document yet; its provider has not published one.`,
        ]);
      return openApiToMarkdown(doc, { title: product.name, level: 2, serverUrl: gateway, intro: auth });
    }),
  );
  return mdBlocks([
    "# Documentation",
    `The API reference of ${portal.products.map((p) => p.name).join(", ")} by ${portal.providerName}, from ${
      portal.products.length === 1 ? "its" : "their"
    } OpenAPI ${portal.products.length === 1 ? "document" : "documents"}. JSON: ${origin}/p/${portal.slug}/openapi.json${
      portal.products.length === 1 ? "" : "?product={product id}"
    }.`,
    ...sections,
  ]);
}
