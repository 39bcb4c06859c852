import Link from "next/link";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/http/errors";
import { getCatalogProduct } from "@/lib/products/catalog";
import { getPortalContext } from "@/lib/portal/portal-context";
import { Badge, Card } from "@/components/ui/primitives";
import { CatalogShell } from "@/components/marketplace/catalog-shell";
import { PricingTable } from "@/components/marketplace/pricing-table";
import type { PriceView } from "@/components/marketplace/price-text";

// GET /catalog/{slug}: one public product with its plans and a Subscribe link per plan. Its provider also sees its
// own unpublished product here, as a preview.

type Params = Promise<{ slug: string }>;

async function load(slug: string, viewerBusinessId: string | null) {
  try {
    return await getCatalogProduct(decodeURIComponent(slug), viewerBusinessId ? { businessId: viewerBusinessId } : null);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) notFound();
    throw e;
  }
}

export async function generateMetadata({ params }: { params: Params }) {
  const { slug } = await params;
  return { title: `${slug} · API catalogue` };
}

export default async function CatalogProductPage({ params }: { params: Params }) {
  const { slug } = await params;
  const viewer = await getPortalContext();
  const product = await load(slug, viewer?.business.id ?? null);
  const own = viewer?.business.id === product.provider.id;
  return (
    <CatalogShell signedIn={viewer !== null}>
      <p className="text-sm">
        <Link href="/catalog">← All products</Link>
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold tracking-tight">{product.name}</h1>
        <Badge tone="info">{product.type}</Badge>
        {own ? <Badge tone="warning">Your product</Badge> : null}
      </div>
      <p className="mt-1 text-slate-600 dark:text-slate-300">
        by <span data-testid="provider-name">{product.provider.name}</span>
      </p>
      {product.description ? <p className="mt-4 max-w-3xl">{product.description}</p> : null}
      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <Card title="Plans" className="lg:col-span-2">
          <PricingTable
            prices={product.prices as PriceView[]}
            caption={`Plans of ${product.name}`}
            subscribeHref={(priceId) => `/portal/subscriptions/new?price=${encodeURIComponent(priceId)}`}
          />
          <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
            Subscribing needs an account; test mode takes the test card 4242 4242 4242 4242 and never charges.
          </p>
        </Card>
        <Card title="Features">
          {product.features.length ? (
            <ul className="space-y-1 text-sm">
              {product.features.map((f) => (
                <li key={f.id}>
                  <span className="font-medium">{f.name}</span>
                  {f.description ? <span className="block text-xs text-slate-500">{f.description}</span> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">No features listed.</p>
          )}
          {product.api?.openapiUrl ? (
            <p className="mt-3 text-sm">
              <a href={product.api.openapiUrl} rel="noopener noreferrer">
                OpenAPI document
              </a>
            </p>
          ) : null}
        </Card>
      </div>
    </CatalogShell>
  );
}
