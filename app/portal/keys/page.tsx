import { requirePortalContext } from "@/lib/portal/portal-context";
import { developerPortalConfig } from "@/lib/apps/developer-app";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { API_KEY_COLLECTION, listApiKeys } from "@/lib/keys/manage-api-keys";
import { requestsByKey } from "@/lib/usage/metrics";
import { SCOPE_RESOURCES } from "@/lib/auth/scopes";
import { KeysManager, type KeyView } from "@/components/portal/keys-manager";

export const metadata = { title: "API Keys · Developer Portal" };

export default async function DeveloperAPIKeys() {
  const ctx = await requirePortalContext();
  const props = developerPortalConfig().views.apiKeys;
  const [keys, usage] = await Promise.all([
    listApiKeys(ctx.auth, parseCollectionQuery(new URLSearchParams({ limit: "100" }), API_KEY_COLLECTION)),
    requestsByKey(ctx.auth, 30),
  ]);
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
        canWrite={ctx.auth.scopes.includes("*") || ctx.auth.scopes.includes("api_keys:*")}
      />
    </div>
  );
}
