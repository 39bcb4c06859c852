import { Suspense } from "react";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { consoleApp } from "@/lib/portal/console-app";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { WEBHOOK_COLLECTION, listWebhooks } from "@/lib/webhooks/manage-webhooks";
import { secretGraces } from "@/lib/webhooks/endpoint-secrets";
import { EVENT_TYPES } from "@/lib/events/event-types";
import { EXAMPLES } from "@/lib/events/examples";
import { Card } from "@/components/ui/primitives";
import { WebhooksManager, type WebhookView } from "@/components/portal/webhooks-manager";

export const metadata = { title: "Webhooks · Developer Portal" };

export default async function DeveloperWebhooks() {
  const ctx = await requirePortalContext();
  const props = (await consoleApp(ctx)).app.views.webhooks;
  const hooks = await listWebhooks(ctx.auth, parseCollectionQuery(new URLSearchParams({ limit: "100" }), WEBHOOK_COLLECTION));
  const graces = await secretGraces(
    ctx.auth,
    hooks.data.map((h) => String((h as { id: string }).id)),
  );
  const views = (hooks.data as Omit<WebhookView, "previousSecretExpiresAt">[]).map((h) => ({
    ...h,
    previousSecretExpiresAt: graces[h.id] ?? null,
  }));
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Webhooks</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          We POST signed JSON to your endpoints and retry failures after 1 min, 5 min, 25 min and 2 h (5 attempts). Verify signatures as
          described in <a href="/docs/webhooks">the receiver guide</a>.
        </p>
      </div>
      <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
        <WebhooksManager
          hooks={views}
          eventTypes={[...EVENT_TYPES]}
          props={props}
          canWrite={ctx.auth.scopes.includes("*") || ctx.auth.scopes.includes("webhooks:*")}
        />
      </Suspense>
      {props.showPayloadExamples ? (
        <Card title="Payload examples">
          <div className="space-y-2">
            {EXAMPLES.map((e) => (
              <details key={e.type} className="rounded border border-slate-200 p-2 dark:border-slate-800">
                <summary className="cursor-pointer font-mono text-sm">{e.type}</summary>
                <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
                  {JSON.stringify(e.payload, null, 2)}
                </pre>
              </details>
            ))}
          </div>
        </Card>
      ) : null}
    </div>
  );
}
