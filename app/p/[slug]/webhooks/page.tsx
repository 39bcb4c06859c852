import { Suspense } from "react";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { WEBHOOK_COLLECTION, listWebhooks } from "@/lib/webhooks/manage-webhooks";
import { secretGraces } from "@/lib/webhooks/endpoint-secrets";
import { examplePayload } from "@/lib/events/examples";
import { PORTAL_WEBHOOK_EVENTS, receivesPortalEvents } from "@/lib/apps/portal-scope";
import { grants } from "@/lib/auth/scopes";
import { Card } from "@/components/ui/primitives";
import { QueryProvider } from "@/components/portal/query-provider";
import { WebhooksManager, type WebhookView } from "@/components/portal/webhooks-manager";
import { SignInToSee, SubscribeToSee, ViewHeader } from "@/components/product-portal/visitor-gate";
import { visitorView } from "../load";

// /p/{slug}/webhooks: the visitor's endpoints that receive the events of their subscription (subscription.*,
// payment.*), managed with the console's component and actions (the same domain functions as /v1/webhooks):
// add and delete, a test event (enableTesting), deliveries (showDeliveryLogs) and payload examples.

type Params = Promise<{ slug: string }>;

export const metadata = { title: "Webhooks" };

export default async function ProductPortalWebhooks({ params }: { params: Params }) {
  const v = await visitorView((await params).slug, "webhooks");
  const { portal, viewer } = v;
  const props = portal.app.views.webhooks;
  const header = (
    <ViewHeader title="Webhooks" environment={viewer?.environment}>
      Endpoints that receive the events of your subscription to {v.productNames}: signed JSON POSTs, retried after 1 min, 5 min, 25 min and
      2 h.
    </ViewHeader>
  );
  if (!viewer)
    return (
      <div>
        {header}
        <SignInToSee slug={portal.slug} path={`/p/${portal.slug}/webhooks`} what="your webhook endpoints" />
      </div>
    );
  if (!v.subscriptions.length)
    return (
      <div>
        {header}
        <SubscribeToSee slug={portal.slug} what="subscription events" products={v.productNames} />
      </div>
    );
  const hooks = await listWebhooks(viewer.auth, parseCollectionQuery(new URLSearchParams({ limit: "100" }), WEBHOOK_COLLECTION));
  const mine = (hooks.data as Omit<WebhookView, "previousSecretExpiresAt">[]).filter((h) => receivesPortalEvents(h.events));
  const graces = await secretGraces(
    viewer.auth,
    mine.map((h) => h.id),
  );
  return (
    <div className="space-y-6">
      {header}
      <QueryProvider>
        <Suspense fallback={<p className="text-sm text-(--app-muted)">Loading…</p>}>
          <WebhooksManager
            hooks={mine.map((h) => ({ ...h, previousSecretExpiresAt: graces[h.id] ?? null }))}
            eventTypes={PORTAL_WEBHOOK_EVENTS}
            allEvents={false}
            props={props}
            canWrite={grants(viewer.auth.scopes, "webhooks:write")}
          />
        </Suspense>
      </QueryProvider>
      {props.showPayloadExamples ? (
        <Card title="Payload examples">
          <div className="space-y-2" data-testid="payload-examples">
            {PORTAL_WEBHOOK_EVENTS.map((type) => (
              <details key={type} className="rounded border border-slate-200 p-2 dark:border-slate-800">
                <summary className="cursor-pointer font-mono text-sm">{type}</summary>
                <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
                  {JSON.stringify(examplePayload(type), null, 2)}
                </pre>
              </details>
            ))}
          </div>
        </Card>
      ) : null}
    </div>
  );
}
