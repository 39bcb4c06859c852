import { redirect } from "next/navigation";
import { headers } from "next/headers";
import { db } from "@/lib/db/client";
import { publicBaseUrl } from "@/lib/http/public-base-url";
import { getPortalContext } from "@/lib/portal/portal-context";
import { authorizeParams, parseAuthorizationRequest } from "@/lib/oauth/authorization-request";
import { grantableScopes } from "@/lib/oauth/approve-authorization";
import { consentToken } from "@/lib/oauth/consent-token";
import { errorRedirectUrl } from "@/lib/oauth/oauth-error";
import { resourceConsent } from "@/lib/oauth/consent-resource";
import { serializePrice } from "@/lib/products/serialize";
import { ConsentForm, type McpConsentView } from "@/components/oauth/consent-form";
import { describePrice } from "@/components/marketplace/price-text";

// The consent page of the authorization-code flow: who asks (the client and who registered it), for which
// business and environment, and each scope in plain words. proxy.ts sends signed-out visitors to sign in and back.
// For an MCP resource (RFC 8707): which product the agent will call, and which project's subscription pays for it.

export const metadata = { title: "Authorize an application · Developer Platform" };
export const dynamic = "force-dynamic";

export default async function ConsentPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(raw)) for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) params.append(k, one);
  const ctx = await getPortalContext();
  if (!ctx) redirect(`/signin?callbackUrl=${encodeURIComponent(`/oauth/consent?${params}`)}`);
  const issuer = publicBaseUrl(new Request("http://local/", { headers: await headers() }));
  const parsed = await parseAuthorizationRequest(params, issuer);
  if (parsed.kind === "fatal") {
    return (
      <main className="mx-auto max-w-lg px-6 py-16">
        <h1 className="text-2xl font-bold">This authorization request cannot be completed</h1>
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {parsed.message}
        </p>
      </main>
    );
  }
  if (parsed.kind === "redirect") redirect(errorRedirectUrl(parsed.redirectUri, parsed, parsed.state, issuer));
  const { request } = parsed;
  const owner = request.client.businessId
    ? await db.business.findUnique({ where: { id: request.client.businessId }, select: { name: true } })
    : null;
  const { granted, withheld } = grantableScopes(request.scopes, ctx.role);
  const mcp = request.resource ? await mcpView(ctx.business.id, request.client, request.resource) : null;
  return (
    <main className="mx-auto max-w-lg px-6 py-12">
      <ConsentForm
        clientName={request.client.name}
        ownerName={request.client.businessId ? (owner?.name ?? "another business") : null}
        redirectHost={new URL(request.redirectUri).host || request.redirectUri}
        environment={request.client.environment === "production" ? "live" : request.client.environment === "test" ? "test" : null}
        mcp={mcp}
        user={ctx.user.email}
        business={{ id: ctx.business.id, name: ctx.business.name, role: ctx.role }}
        otherBusinesses={ctx.memberships
          .filter((m) => m.businessId !== ctx.business.id)
          .map((m) => ({ id: m.businessId, name: m.businessName }))}
        granted={granted}
        withheld={withheld}
        params={authorizeParams(params)}
        csrfToken={consentToken(ctx.user.id, authorizeParams(params))}
      />
    </main>
  );
}

async function mcpView(
  businessId: string,
  client: { environment: string | null },
  resource: NonNullable<Parameters<typeof resourceConsent>[2]>,
): Promise<McpConsentView> {
  const c = await resourceConsent(businessId, client, resource);
  return {
    ...c,
    options: c.options.map((o) => {
      const price = o.subscription?.price ? describePrice(serializePrice(o.subscription.price)) : null;
      return {
        value: o.value,
        projectName: o.projectName,
        environment: o.environment === "production" ? "live" : "test",
        subscription: o.subscription
          ? { status: o.subscription.status, plan: o.subscription.price?.name ?? "a plan", price: price?.headline ?? "" }
          : null,
      };
    }),
  };
}
