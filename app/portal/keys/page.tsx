import { requirePortalContext } from "@/lib/portal/portal-context";
import { consoleApp } from "@/lib/portal/console-app";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { API_KEY_COLLECTION, listApiKeys } from "@/lib/keys/manage-api-keys";
import { requestsByKey } from "@/lib/usage/metrics";
import { SCOPE_RESOURCES } from "@/lib/auth/scopes";
import { KeysManager, type KeyView } from "@/components/portal/keys-manager";
import { namesOf } from "@/lib/billing/marketplace-views";
import { callableProducts } from "@/components/marketplace/price-text";

export const metadata = { title: "API Keys · Developer Portal" };

export default async function DeveloperAPIKeys() {
  const ctx = await requirePortalContext();
  const props = (await consoleApp(ctx)).app.views.apiKeys;
  const [keys, usage] = await Promise.all([
    listApiKeys(ctx.auth, parseCollectionQuery(new URLSearchParams({ limit: "100" }), API_KEY_COLLECTION)),
    requestsByKey(ctx.auth, 30),
  ]);
  // Which products each key may call (call:<productId> scopes), by name.
  const callScopes = (keys.data as KeyView[]).flatMap((k) => k.scopes.filter((s) => s.startsWith("call:prod_")).map((s) => s.slice(5)));
  const productNames = (await namesOf({ products: callScopes }, ctx.business.id)).products;
  const callable = Object.fromEntries((keys.data as KeyView[]).map((k) => [k.id, callableProducts(k.scopes, productNames)]));
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">API Keys</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {ctx.environment === "test"
            ? "Test keys (sk_test_…) read and write test data only."
            : "Live keys (sk_live_…) read and write live data; their successful calls are billable."}
        </p>
      </div>
      <KeysManager
        keys={keys.data as KeyView[]}
        usage={usage}
        props={props}
        environment={ctx.environment}
        resources={[...SCOPE_RESOURCES]}
        callable={callable}
        canWrite={ctx.auth.scopes.includes("*") || ctx.auth.scopes.includes("api_keys:*")}
      />
    </div>
  );
}
