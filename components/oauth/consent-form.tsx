import { Badge, Button, Card, Select } from "@/components/ui/primitives";
import { describeScope } from "@/lib/oauth/scope-words";

// The consent form: a plain HTML form that POSTs to /oauth/authorize (works without JavaScript), carrying the
// authorization request, the business chosen and a CSRF token bound to this user and request. For an MCP resource
// it also says which product the agent will call and which project's subscription pays, and carries that choice
// (`target`: project and environment).

export interface McpConsentView {
  productName: string;
  productSlug: string;
  providerName: string;
  resourceUrl: string;
  selected: string;
  anyActive: boolean;
  options: {
    value: string;
    projectName: string;
    environment: "test" | "live";
    subscription: { status: string; plan: string; price: string } | null;
  }[];
}

interface Props {
  clientName: string;
  /** Who registered the client; null for a client that registered itself (RFC 7591). */
  ownerName: string | null;
  redirectHost: string;
  /** The client's environment; null when the user chooses it (a self-registered client). */
  environment: "test" | "live" | null;
  mcp?: McpConsentView | null;
  user: string;
  business: { id: string; name: string; role: string };
  otherBusinesses: { id: string; name: string }[];
  granted: string[];
  withheld: string[];
  params: [string, string][];
  csrfToken: string;
}

export function ConsentForm(p: Props) {
  return (
    <Card>
      <h1 className="text-xl font-bold">Authorize {p.clientName}</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        <strong>{p.clientName}</strong>{" "}
        {p.ownerName ? `(registered by ${p.ownerName})` : `(registered itself: the name is the application's own and is not verified)`}{" "}
        wants to act for <strong data-testid="consent-business">{p.business.name}</strong>
        {p.environment ? (
          <>
            {" "}
            on its <Badge tone={p.environment === "live" ? "warning" : "info"}>{`${p.environment} data`}</Badge>
          </>
        ) : null}
        . You are signed in as {p.user}.
      </p>
      {p.mcp ? <McpSummary mcp={p.mcp} /> : null}
      {p.mcp ? null : p.granted.length ? (
        <>
          <h2 className="mt-4 text-sm font-semibold">It will be able to:</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm" aria-label="Permissions requested">
            {p.granted.map((s) => (
              <li key={s}>
                {describeScope(s)} <code className="text-xs text-slate-500">({s})</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {p.granted.length ? null : (
        <p role="alert" className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Your role ({p.business.role}) cannot grant any of the permissions this application asks for.
        </p>
      )}
      {p.withheld.length ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          Not granted, because your role ({p.business.role}) does not hold them: {p.withheld.map(describeScope).join("; ")}.
        </p>
      ) : null}
      <form method="post" action="/oauth/authorize" className="mt-6 space-y-4">
        {p.params.map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <input type="hidden" name="csrf_token" value={p.csrfToken} />
        <input type="hidden" name="business_id" value={p.business.id} />
        {p.mcp && p.mcp.options.length ? (
          <label className="block text-sm">
            <span className="font-semibold">Project that pays for the calls</span>
            <Select name="target" defaultValue={p.mcp.selected} className="mt-1 w-full" data-testid="consent-target">
              {p.mcp.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {`${o.projectName} · ${o.environment} · ${o.subscription ? `${o.subscription.plan} (${o.subscription.status})` : "not subscribed"}`}
                </option>
              ))}
            </Select>
          </label>
        ) : null}
        <p className="text-xs text-slate-500">
          After your decision you return to {p.redirectHost}. You can revoke access at any time under Settings → Authorized apps.
        </p>
        <div className="flex gap-3">
          <Button type="submit" name="decision" value="approve" disabled={!p.granted.length}>
            Allow access
          </Button>
          <Button type="submit" name="decision" value="deny" variant="secondary">
            Deny
          </Button>
        </div>
      </form>
      {p.otherBusinesses.length ? (
        <p className="mt-4 text-xs text-slate-500">
          To authorize for another business ({p.otherBusinesses.map((b) => b.name).join(", ")}), switch business in the portal first, then
          start again from the application.
        </p>
      ) : null}
    </Card>
  );
}

function McpSummary({ mcp }: { mcp: McpConsentView }) {
  return (
    <section className="mt-4 space-y-3 text-sm" aria-label="What the agent will call" data-testid="consent-mcp">
      <p>
        It will call <strong data-testid="consent-product">{mcp.productName}</strong> (sold by {mcp.providerName}) through its MCP server{" "}
        <code className="break-all text-xs">{mcp.resourceUrl}</code>, and nothing else: not your products, keys or settings.
      </p>
      <p>
        Every call is billed to the subscription of the project you choose below, at its plan&apos;s price: the agent spends that
        project&apos;s money until you revoke it.
      </p>
      <ul className="space-y-1" aria-label="Your subscriptions to this product">
        {mcp.options.map((o) => (
          <li key={o.value}>
            <strong>{o.projectName}</strong> ({o.environment}):{" "}
            {o.subscription ? (
              <>
                {o.subscription.plan}
                {o.subscription.price ? `, ${o.subscription.price}` : ""}{" "}
                <Badge tone={o.subscription.status === "active" ? "success" : "warning"}>{o.subscription.status}</Badge>
              </>
            ) : (
              "no subscription"
            )}
          </li>
        ))}
      </ul>
      {mcp.anyActive ? null : (
        <p
          role="alert"
          className="rounded-md bg-amber-50 p-3 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          data-testid="consent-unsubscribed"
        >
          None of your projects has an active subscription to {mcp.productName}. You can allow access now, but every call will be refused
          until the project subscribes:{" "}
          <a className="underline" href={`/p/${mcp.productSlug}`}>
            subscribe at /p/{mcp.productSlug}
          </a>
          .
        </p>
      )}
    </section>
  );
}
