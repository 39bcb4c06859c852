import { Badge, Button, Card } from "@/components/ui/primitives";
import { describeScope } from "@/lib/oauth/scope-words";

// The consent form: a plain HTML form that POSTs to /oauth/authorize (works without JavaScript), carrying the
// authorization request, the business chosen and a CSRF token bound to this user and request.

interface Props {
  clientName: string;
  ownerName: string;
  redirectHost: string;
  environment: "test" | "live";
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
        <strong>{p.clientName}</strong> (registered by {p.ownerName}) wants to act for{" "}
        <strong data-testid="consent-business">{p.business.name}</strong> on its{" "}
        <Badge tone={p.environment === "live" ? "warning" : "info"}>{`${p.environment} data`}</Badge>. You are signed in as {p.user}.
      </p>
      {p.granted.length ? (
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
      ) : (
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
