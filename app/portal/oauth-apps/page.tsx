import { requirePortalContext } from "@/lib/portal/portal-context";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { OAUTH_CLIENT_COLLECTION, listOAuthClients } from "@/lib/oauth/manage-clients";
import { SCOPE_RESOURCES, grants } from "@/lib/auth/scopes";
import { OAuthClientsManager, type ClientView } from "@/components/portal/oauth-clients-manager";

export const metadata = { title: "OAuth apps · Developer Portal" };

export default async function DeveloperOAuthApps() {
  const ctx = await requirePortalContext();
  const canRead = grants(ctx.auth.scopes, "oauth_clients:read");
  const clients = canRead
    ? await listOAuthClients(ctx.auth, parseCollectionQuery(new URLSearchParams({ limit: "100" }), OAUTH_CLIENT_COLLECTION))
    : { data: [] };
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">OAuth apps</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Register an application so it can ask portal users for access to their business through OAuth 2.0 instead of holding an API key.
          Applications registered in {ctx.environment === "test" ? "test" : "live"} mode act on{" "}
          {ctx.environment === "test" ? "test" : "live"} data. See <a href="/docs/oauth">the OAuth guide</a>.
        </p>
      </div>
      <OAuthClientsManager
        clients={clients.data as ClientView[]}
        resources={[...SCOPE_RESOURCES]}
        environment={ctx.environment}
        canWrite={grants(ctx.auth.scopes, "oauth_clients:write")}
      />
    </div>
  );
}
