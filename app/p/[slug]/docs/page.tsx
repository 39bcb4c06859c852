import Link from "next/link";
import { notFound } from "next/navigation";
import { gatewayAddress, portalViews } from "@/lib/apps/product-portal";
import { ProductApiReference } from "@/components/product-portal/product-api-reference";
import { portalFor, requestOrigin } from "../load";

// /p/{slug}/docs: the API reference of a product the portal presents, from its OpenAPI document (uploaded or at
// its openapiUrl), with the gateway as the server and code examples in the app's languages.

type Params = Promise<{ slug: string }>;
type Search = Promise<Record<string, string | undefined>>;

export default async function ProductPortalDocs({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { portal } = await portalFor((await params).slug);
  if (!portalViews(portal.app).includes("docs")) notFound();
  const wanted = (await searchParams).product;
  const product = portal.products.find((p) => p.id === wanted) ?? portal.products[0];
  const docs = portal.app.views.docs;
  const versions = portal.app.config.apiVersions;
  return (
    <div>
      <h1 className="text-3xl font-bold tracking-tight">Documentation</h1>
      {portal.products.length > 1 ? (
        <nav aria-label="Products" className="mt-3">
          <ul className="flex flex-wrap gap-2 text-sm">
            {portal.products.map((p) => (
              <li key={p.id}>
                <Link href={`/p/${portal.slug}/docs?product=${p.id}`} aria-current={p.id === product?.id ? "page" : undefined}>
                  {p.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {!product ? (
        <p className="mt-4 text-(--app-muted)">This portal presents no product that is available yet.</p>
      ) : !product.api || (!product.api.openapiUrl && !product.api.hasOpenapiDocument) ? (
        <p className="mt-4 text-(--app-muted)">{product.name} has no OpenAPI document yet; its provider has not published one.</p>
      ) : (
        <>
          <p className="mt-2 text-(--app-muted)">
            {product.name} · base URL <code data-testid="gateway-url">{gatewayAddress(portal, product, await requestOrigin())}</code>
            {versions.length ? <> · versions {versions.join(", ")}</> : null}
          </p>
          <p className="mt-1 text-sm text-(--app-muted)">
            Calls need an API key of a subscription to {product.name}: send it as <code>Authorization: Bearer sk_test_…</code>.
          </p>
          <div className="mt-6">
            <ProductApiReference
              documentUrl={`/p/${portal.slug}/openapi.json?product=${product.id}`}
              serverUrl={gatewayAddress(portal, product, await requestOrigin())}
              languages={docs.languages}
              enableTryIt={docs.enableTryIt}
              showCodeExamples={docs.showCodeExamples}
              darkMode={portal.app.theme?.mode === "dark"}
            />
          </div>
        </>
      )}
    </div>
  );
}
