import Link from "next/link";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { catalogProductOfPrice } from "@/lib/billing/marketplace-views";
import { Card, EmptyState } from "@/components/ui/primitives";
import { PricingTable } from "@/components/marketplace/pricing-table";
import { SubscribeForm } from "@/components/marketplace/subscribe-form";
import type { PriceView } from "@/components/marketplace/price-text";

// /portal/subscriptions/new?price=price_…: the plan chosen in the catalogue and the card that pays for it. The
// subscription is the current project's, in the environment the portal shows.

export const metadata = { title: "Subscribe · Developer Portal" };

export default async function SubscribePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await requirePortalContext();
  const raw = (await searchParams).price;
  const priceId = (Array.isArray(raw) ? raw[0] : raw) ?? "";
  const found = priceId ? await catalogProductOfPrice(priceId, ctx.business.id) : null;
  if (!found)
    return (
      <div className="space-y-6">
        <h1 className="text-2xl font-bold">Subscribe</h1>
        <EmptyState title="No such plan">
          The plan is not available, or no longer offered. Choose one in the <Link href="/catalog">catalogue</Link>.
        </EmptyState>
      </div>
    );
  const { product, price } = found;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Subscribe to {product.name}</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Sold by {product.provider.name}. The subscription belongs to the project {ctx.project.name}, in{" "}
          {ctx.environment === "test" ? "test mode" : "live mode"}.
        </p>
      </div>
      <Card title={`Plan: ${price.name}`}>
        <PricingTable prices={[price as PriceView]} caption={`The plan ${price.name}`} />
      </Card>
      <Card title="Payment">
        <SubscribeForm priceId={price.id} environment={ctx.environment} />
      </Card>
    </div>
  );
}
