import Link from "next/link";
import { notFound } from "next/navigation";
import { gatewayAddress, portalViews } from "@/lib/apps/product-portal";
import { currentSubscriptionTo } from "@/lib/billing/current-subscription";
import { ProductApiReference, type TryItAccess } from "@/components/product-portal/product-api-reference";
import { ApiVersions } from "@/components/product-portal/api-versions";
import { MarkdownTwinLink } from "@/components/docs/markdown-twin-link";
import { portalFor, requestOrigin } from "../load";
import { portalPaths, visitorFor } from "../visitor";

// /p/{slug}/docs: the API reference of a product the portal presents, from its OpenAPI document (uploaded or at
// its openapiUrl), with the gateway as the server and code examples in the app's languages. Try-it uses the signed-in
// visitor's test key for the product when the visitor subscribes in test mode; the app's apiVersions are listed.

type Params = Promise<{ slug: string }>;
type Search = Promise<Record<string, string | undefined>>;

export default async function ProductPortalDocs({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { portal } = await portalFor((await params).slug);
  if (!portalViews(portal.app).includes("docs")) notFound();
  const wanted = (await searchParams).product;
  const product = portal.products.find((p) => p.id === wanted) ?? portal.products[0];
  const docs = portal.app.views.docs;
  const versions = portal.app.config.apiVersions;
  const paths = portalPaths(portal.slug);
  const visitor = await visitorFor();
  const subscribed = visitor && product ? await currentSubscriptionTo({ ...visitor.auth, environment: "test" }, product.id) : null;
  const access: TryItAccess = !visitor
    ? { state: "signed-out", signInHref: paths.signIn(`${paths.docs}${wanted ? `?product=${encodeURIComponent(wanted)}` : ""}`) }
    : !subscribed || !product
      ? {
          state: "not-subscribed",
          productName: product?.name ?? "",
          subscribeHref: product?.prices[0] ? paths.subscribe(product.prices[0].id) : null,
        }
      : { state: "ready", productId: product.id };
  return (
    <div>
      <MarkdownTwinLink href={`/p/${portal.slug}/docs.md`} />
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
          </p>
          <ApiVersions versions={versions} />
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
              access={access}
            />
          </div>
        </>
      )}
    </div>
  );
}
