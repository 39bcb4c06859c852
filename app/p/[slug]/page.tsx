import Link from "next/link";
import { PricingTable } from "@/components/marketplace/pricing-table";
import type { PriceView } from "@/components/marketplace/price-text";
import { portalViews } from "@/lib/apps/product-portal";
import { portalFor } from "./load";
import { PortalDashboard } from "./portal-dashboard";

// The portal's landing page: the products the app presents, each with its plans as a pricing table, and a
// "Get started" button that signs a new developer up and leads to the subscription of the first plan. A signed-in
// subscriber sees their dashboard above it (portal-dashboard.tsx).

type Params = Promise<{ slug: string }>;

const subscribePath = (slug: string, priceId: string) => `/p/${slug}/subscribe?price=${encodeURIComponent(priceId)}`;

export default async function ProductPortalHome({ params }: { params: Params }) {
  const { portal, signedIn } = await portalFor((await params).slug);
  const { app, products } = portal;
  const start = (priceId: string) =>
    signedIn
      ? subscribePath(portal.slug, priceId)
      : `/p/${portal.slug}/signup?next=${encodeURIComponent(subscribePath(portal.slug, priceId))}`;
  const firstPrice = products.flatMap((p) => p.prices)[0];
  const showDocs = portalViews(app).includes("docs");
  return (
    <div>
      <PortalDashboard slug={portal.slug} />
      <h1 className="text-3xl font-bold tracking-tight">{app.name}</h1>
      {app.description ? <p className="mt-2 max-w-3xl text-lg text-(--app-muted)">{app.description}</p> : null}
      <div className="mt-6 flex flex-wrap gap-3">
        {firstPrice ? (
          <Link
            href={start(firstPrice.id)}
            className="rounded-md bg-(--app-accent) px-4 py-2 font-semibold text-(--app-bg) no-underline hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-(--app-accent)"
          >
            Get started
          </Link>
        ) : null}
        {showDocs && products.length ? (
          <Link
            href={`/p/${portal.slug}/docs`}
            className="rounded-md border border-(--app-border) px-4 py-2 font-semibold text-(--app-fg) no-underline hover:no-underline"
          >
            Read the docs
          </Link>
        ) : null}
      </div>
      {products.length === 0 ? <p className="mt-8 text-(--app-muted)">This portal presents no product that is available yet.</p> : null}
      {products.map((product) => (
        <section key={product.id} aria-labelledby={`product-${product.id}`} className="mt-10" data-testid="portal-product">
          <h2 id={`product-${product.id}`} className="text-2xl font-semibold tracking-tight">
            {product.name}
          </h2>
          <p className="text-sm text-(--app-muted)">by {product.provider.name}</p>
          {product.description ? <p className="mt-2 max-w-3xl">{product.description}</p> : null}
          <div className="mt-4 rounded-lg border border-(--app-border) bg-(--app-card) p-4">
            <h3 className="mb-2 font-semibold">Plans</h3>
            <PricingTable prices={product.prices as PriceView[]} caption={`Plans of ${product.name}`} subscribeHref={start} />
            <p className="mt-3 text-xs text-(--app-muted)">Test mode takes the test card 4242 4242 4242 4242 and never charges.</p>
          </div>
          {product.features.length ? (
            <div className="mt-4">
              <h3 className="font-semibold">Features</h3>
              <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
                {product.features.map((f) => (
                  <li key={f.id}>
                    <span className="font-medium">{f.name}</span>
                    {f.description ? <span className="text-(--app-muted)"> · {f.description}</span> : null}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </section>
      ))}
    </div>
  );
}
