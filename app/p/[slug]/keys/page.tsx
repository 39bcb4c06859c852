import Link from "next/link";
import { notFound } from "next/navigation";
import { portalViews } from "@/lib/apps/product-portal";
import { currentSubscriptionTo } from "@/lib/billing/current-subscription";
import { listProductKeys } from "@/lib/keys/product-keys";
import { productCallsByKey } from "@/lib/usage/metrics";
import { SCOPE_RESOURCES } from "@/lib/auth/scopes";
import { KeysManager, type KeyView } from "@/components/portal/keys-manager";
import { EnvironmentSwitch } from "@/components/portal/environment-switch";
import { portalFor } from "../load";
import { portalPaths, visitorFor } from "../visitor";

// /p/{slug}/keys: the visitor's keys that may call the portal's product (limited to it, or unrestricted) in the
// environment the visitor looks at, and new keys limited to it, with the app's DeveloperAPIKeys props (scopes,
// rotation, calls per key, default expiry). Signed out or not subscribed: says what to do, with the link.

type Params = Promise<{ slug: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export const metadata = { title: "API keys" };

const box = "mt-6 rounded-lg border border-(--app-border) bg-(--app-card) p-6";

export default async function PortalKeys({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { portal } = await portalFor((await params).slug);
  if (!portalViews(portal.app).includes("api-keys")) notFound();
  const query = await searchParams;
  const product = portal.products.find((p) => p.id === query.product) ?? portal.products[0];
  const paths = portalPaths(portal.slug);
  const visitor = await visitorFor();
  const heading = <h1 className="text-3xl font-bold tracking-tight">API keys</h1>;
  if (!product)
    return (
      <div>
        {heading}
        <p className={box}>This portal presents no product that is available yet.</p>
      </div>
    );
  if (!visitor)
    return (
      <div>
        {heading}
        <div className={box}>
          <p>Sign in to see and make your keys for {product.name}.</p>
          <p className="mt-3 flex flex-wrap gap-4">
            <Link href={paths.signIn(paths.keys)} className="font-semibold text-(--app-accent-strong)">
              Sign in
            </Link>
            <Link href={paths.signUp(paths.keys)} className="font-semibold text-(--app-accent-strong)">
              Create an account
            </Link>
          </p>
        </div>
      </div>
    );
  const mode = visitor.environment === "test" ? "test" : "live";
  const subscription = await currentSubscriptionTo(visitor.auth, product.id);
  const props = portal.app.views.apiKeys;
  const switcher = (
    <div className="mt-3 flex flex-wrap items-center gap-3 text-sm text-(--app-muted)">
      <span>
        {mode === "test"
          ? "Showing test keys (sk_test_…): they call the sandbox and are never billed."
          : "Showing live keys (sk_live_…): their calls are billed."}
      </span>
      <EnvironmentSwitch environment={visitor.environment} id="portal-test-mode" />
    </div>
  );
  if (!subscription) {
    const firstPrice = product.prices[0];
    return (
      <div>
        {heading}
        {switcher}
        <div className={box} data-testid="not-subscribed">
          <p>
            You do not subscribe to {product.name} in {mode} mode, so no key of yours may call it yet.
          </p>
          {firstPrice ? (
            <p className="mt-3">
              <Link href={paths.subscribe(firstPrice.id)} className="font-semibold text-(--app-accent-strong)">
                Subscribe to {product.name}
              </Link>
            </p>
          ) : null}
        </div>
      </div>
    );
  }
  const [keys, usage] = await Promise.all([
    listProductKeys(visitor.auth, product.id),
    props.showUsageStats ? productCallsByKey(visitor.auth, product.id, 30) : Promise.resolve({}),
  ]);
  return (
    <div>
      {heading}
      <p className="mt-2 text-(--app-muted)">
        Keys that may call {product.name}, on your plan {subscription.priceName}. Send one as <code>Authorization: Bearer sk_{mode}_…</code>
        ; try it from the{" "}
        <Link href={paths.docs} className="text-(--app-accent-strong)">
          documentation
        </Link>
        .
      </p>
      {query.subscribed ? (
        <p role="status" className="mt-4 rounded-md border border-(--app-border) bg-(--app-accent-soft) p-3 text-sm">
          You subscribe to {product.name}. Create a key below to call it.
        </p>
      ) : null}
      {switcher}
      <div className="mt-6">
        <KeysManager
          keys={keys as KeyView[]}
          usage={usage}
          props={props}
          environment={visitor.environment}
          resources={[...SCOPE_RESOURCES]}
          canWrite={visitor.auth.scopes.includes("*") || visitor.auth.scopes.includes("api_keys:*")}
          product={{ name: product.name, subscriptionId: subscription.id }}
        />
      </div>
    </div>
  );
}
