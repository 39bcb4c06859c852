import Link from "next/link";
import { notFound } from "next/navigation";
import { portalViews, viewOfPath } from "@/lib/apps/product-portal";
import { portalFor } from "../load";

// /p/{slug}/keys, /webhooks, /usage, /logs, /settings: the views the app switches on. Scoped to this product they
// are not built yet (issue 19); each says what it will hold and leads to the same data in the visitor's console.

type Params = Promise<{ slug: string; view: string }>;

const VIEWS: Record<string, { title: string; what: string; console: string }> = {
  "api-keys": { title: "API keys", what: "The keys that may call {product}: create, rotate and revoke them.", console: "/portal/keys" },
  webhooks: {
    title: "Webhooks",
    what: "Endpoints that receive the events of your subscription to {product}.",
    console: "/portal/webhooks",
  },
  usage: {
    title: "Usage",
    what: "Your calls of {product} per period, against your plan's quota, with their cost.",
    console: "/portal/usage",
  },
  logs: { title: "Logs", what: "Every call you made to {product} through the gateway, with status and timing.", console: "/portal/logs" },
  settings: { title: "Settings", what: "Your account and business settings.", console: "/portal/settings" },
};

export default async function ProductPortalView({ params }: { params: Params }) {
  const { slug, view: path } = await params;
  const { portal, signedIn } = await portalFor(slug);
  const view = viewOfPath(path);
  if (!view || !VIEWS[view] || !portalViews(portal.app).concat("settings").includes(view)) notFound();
  const v = VIEWS[view];
  const productNames = portal.products.map((p) => p.name).join(", ") || portal.app.name;
  return (
    <div>
      <h1 className="text-3xl font-bold tracking-tight">{v.title}</h1>
      <p className="mt-2 max-w-3xl text-(--app-muted)">{v.what.replace("{product}", productNames)}</p>
      <div className="mt-6 rounded-lg border border-dashed border-(--app-border) p-6">
        <p>This view of the portal is on its way; the same data is in your console today.</p>
        <p className="mt-3">
          {signedIn ? (
            <Link href={v.console} className="font-semibold text-(--app-accent-strong)">
              Open {v.title.toLowerCase()} in your console
            </Link>
          ) : (
            <Link href={`/signin?callbackUrl=${encodeURIComponent(v.console)}`} className="font-semibold text-(--app-accent-strong)">
              Sign in to see your {v.title.toLowerCase()}
            </Link>
          )}
        </p>
      </div>
    </div>
  );
}
