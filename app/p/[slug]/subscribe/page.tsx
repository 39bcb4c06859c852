import Link from "next/link";
import { redirect } from "next/navigation";
import { PricingTable } from "@/components/marketplace/pricing-table";
import type { PriceView } from "@/components/marketplace/price-text";
import { SubscribeForm } from "@/components/marketplace/subscribe-form";
import { currentSubscriptionTo } from "@/lib/billing/current-subscription";
import { portalFor } from "../load";
import { portalPaths, visitorFor } from "../visitor";

// /p/{slug}/subscribe?price=…: the plan chosen on the portal's landing page, the environment (test by default) and
// the card, with the platform's own subscribe form and action. Signed out: sign up first, then back here. Already
// subscribed to the product: says so and shows the plan instead of the form.

type Params = Promise<{ slug: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export const metadata = { title: "Subscribe" };

const box = "rounded-lg border border-(--app-border) bg-(--app-card) p-4";

export default async function PortalSubscribe({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { portal } = await portalFor((await params).slug);
  const raw = (await searchParams).price;
  const priceId = (Array.isArray(raw) ? raw[0] : raw) ?? "";
  const paths = portalPaths(portal.slug);
  const here = paths.subscribe(priceId);
  const visitor = await visitorFor();
  if (!visitor) redirect(paths.signUp(here));
  const product = portal.products.find((p) => p.prices.some((price) => price.id === priceId));
  const price = product?.prices.find((p) => p.id === priceId);
  if (!product || !price)
    return (
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Subscribe</h1>
        <p role="alert" className={`mt-4 ${box}`}>
          This plan is not offered: it was withdrawn or made inactive, or belongs to another product.{" "}
          <Link href={paths.home} className="text-(--app-accent-strong)">
            Choose one of the current plans
          </Link>
          .
        </p>
      </div>
    );
  const [test, live] = await Promise.all([
    currentSubscriptionTo({ ...visitor.auth, environment: "test" }, product.id),
    currentSubscriptionTo({ ...visitor.auth, environment: "production" }, product.id),
  ]);
  const current = visitor.environment === "production" ? live : test;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Subscribe to {product.name}</h1>
        <p className="mt-2 text-(--app-muted)">
          Sold by {product.provider.name}. The subscription belongs to your project {visitor.project.name} ({visitor.business.name}).
        </p>
      </div>
      {current ? (
        <section className={box} data-testid="already-subscribed" aria-labelledby="already-title">
          <h2 id="already-title" className="text-lg font-semibold">
            You already subscribe to {product.name}
          </h2>
          <p className="mt-1">
            Plan <strong>{current.priceName}</strong>, {current.environment === "test" ? "test mode" : "live mode"}, {current.status}
            {current.priceId !== price.id ? `. To change to ${price.name}, change the plan of this subscription from your account.` : "."}
          </p>
          <p className="mt-3 flex flex-wrap gap-4">
            <Link href={paths.keys} className="font-semibold text-(--app-accent-strong)">
              Your API keys
            </Link>
            <Link href={paths.docs} className="font-semibold text-(--app-accent-strong)">
              Try the API
            </Link>
          </p>
        </section>
      ) : (
        <>
          <section className={box} aria-labelledby="plan-title">
            <h2 id="plan-title" className="mb-2 text-lg font-semibold">
              Plan: {price.name}
            </h2>
            <PricingTable prices={[price as PriceView]} caption={`The plan ${price.name}`} />
            {product.prices.length > 1 ? (
              <nav aria-label="Other plans" className="mt-3 text-sm">
                Other plans:{" "}
                {product.prices
                  .filter((p) => p.id !== price.id)
                  .map((p, i) => (
                    <span key={p.id}>
                      {i ? ", " : null}
                      <Link href={paths.subscribe(p.id)} className="text-(--app-accent-strong)">
                        {p.name}
                      </Link>
                    </span>
                  ))}
              </nav>
            ) : null}
          </section>
          <section className={box} aria-labelledby="payment-title">
            <h2 id="payment-title" className="mb-3 text-lg font-semibold">
              Payment
            </h2>
            {(visitor.environment === "test" ? live : test) ? (
              <p className="mb-3 text-sm text-(--app-muted)">
                You subscribe to {product.name} in {visitor.environment === "test" ? "live" : "test"} mode already.
              </p>
            ) : null}
            <SubscribeForm priceId={price.id} environment="test" chooseEnvironment successHref={`${paths.keys}?subscribed=1`} />
          </section>
        </>
      )}
    </div>
  );
}
