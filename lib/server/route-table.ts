import { productRoutes } from "@/lib/products/routes";
import { versionRoutes } from "@/lib/versions/routes";
import { apiKeyRoutes } from "@/lib/keys/routes";
import { auditRoutes } from "@/lib/audit/routes";
import { usageRoutes } from "@/lib/usage/routes";
import { webhookRoutes } from "@/lib/webhooks/routes";
import { eventRoutes } from "@/lib/events/routes";
import { automationRoutes } from "@/lib/automation/routes";
import { oauthClientRoutes } from "@/lib/oauth/routes";
import { billingRoutes } from "@/lib/billing/routes";
import { creditRoutes } from "@/lib/billing/credit-routes";
import { payoutRoutes } from "@/lib/billing/payout-routes";
import { productCallRoutes } from "@/lib/product-calls/routes";
import { appRoutes } from "@/lib/apps/routes";
import { defineRoute, type AnyRoute } from "@/lib/http/route";
import { buildOpenApi } from "./openapi";

// Every /v1 route, in one table: serve.ts answers requests from it, openapi.ts documents it, and the
// security tests walk it. A route file under app/v1 only names its path here.

const openApiRoute = defineRoute({
  method: "GET",
  path: "/v1/openapi.json",
  summary: "The OpenAPI 3.1 document of this API",
  tag: "Meta",
  auth: "none",
  response: { kind: "raw", description: "OpenAPI 3.1 document" },
  handler: async ({ baseUrl }) => openApiDocument(baseUrl),
});

export const ROUTES: AnyRoute[] = [
  ...productRoutes,
  ...apiKeyRoutes,
  ...auditRoutes,
  ...usageRoutes,
  ...webhookRoutes,
  ...eventRoutes,
  ...oauthClientRoutes,
  ...automationRoutes,
  ...billingRoutes,
  ...creditRoutes,
  ...payoutRoutes,
  ...productCallRoutes,
  ...appRoutes,
  ...versionRoutes,
  openApiRoute,
];

let cachedDocument: { baseUrl: string; doc: Record<string, unknown> } | undefined;

export function openApiDocument(baseUrl: string): Record<string, unknown> {
  if (cachedDocument?.baseUrl !== baseUrl) cachedDocument = { baseUrl, doc: buildOpenApi(ROUTES, baseUrl) };
  return cachedDocument.doc;
}

export function routesForPath(path: string): AnyRoute[] {
  return ROUTES.filter((r) => r.path === path);
}
