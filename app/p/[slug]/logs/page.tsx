import { Suspense } from "react";
import { keysForLogFilter } from "@/lib/usage/log-search";
import { QueryProvider } from "@/components/portal/query-provider";
import { LogsExplorer } from "@/components/portal/logs-explorer";
import { SignInToSee, SubscribeToSee, ViewHeader } from "@/components/product-portal/visitor-gate";
import { visitorView } from "../load";

// /p/{slug}/logs: the visitor's gateway calls of this portal's products, with the console's filters and drawer. The
// server answers only those calls within the view's retentionDays (/api/portal/logs?portal=…); the drawer shows
// headers, the response body and the gateway/upstream timing as showRequestHeaders, showResponseBody, showTiming say.

type Params = Promise<{ slug: string }>;

export const metadata = { title: "Logs" };

export default async function ProductPortalLogs({ params }: { params: Params }) {
  const v = await visitorView((await params).slug, "logs");
  const { portal, viewer } = v;
  const props = portal.app.views.logs;
  const header = (
    <ViewHeader title="Logs" environment={viewer?.environment}>
      Every call you made to {v.productNames} through the gateway in the last {props.retentionDays} days, in{" "}
      {viewer?.environment === "production" ? "live" : "test"} mode. Credentials are never logged.
    </ViewHeader>
  );
  if (!viewer)
    return (
      <div>
        {header}
        <SignInToSee slug={portal.slug} path={`/p/${portal.slug}/logs`} what={`your calls of ${v.productNames}`} />
      </div>
    );
  // Past subscriptions' calls stay readable (within the retention), so only a visitor who never subscribed is sent on.
  if (!v.subscriptions.length)
    return (
      <div>
        {header}
        <SubscribeToSee slug={portal.slug} what="calls" products={v.productNames} />
      </div>
    );
  const keys = await keysForLogFilter(viewer.auth);
  return (
    <div>
      {header}
      <QueryProvider>
        <Suspense fallback={<p className="text-sm text-(--app-muted)">Loading…</p>}>
          <LogsExplorer
            props={props}
            portal={portal.slug}
            keys={keys.map((k) => ({ id: k.id, name: k.name, revoked: k.revokedAt !== null }))}
            emptyText={`Calls you make to ${v.productNames} through the gateway show up here within a second.`}
          />
        </Suspense>
      </QueryProvider>
    </div>
  );
}
