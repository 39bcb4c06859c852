import { db } from "@/lib/db/client";
import type { Price as PriceRow } from "@/generated/prisma-sqlite";
import { environmentsFor } from "./approve-authorization";
import type { McpResource } from "./mcp-resource";

// What the consent page says about an authorization bound to a product's MCP server: the product and who sells
// it, and for each project and environment the user can pick, the subscription to that product that would pay for
// the agent's calls (its plan and status), or that there is none. Consent can be given without a subscription:
// the calls are then refused (403 PRODUCT_NOT_SUBSCRIBED) until the project subscribes at /p/{slug}.

export interface ConsentTargetOption {
  /** `projectId:environment`, the form's `target` value. */
  value: string;
  projectName: string;
  environment: "test" | "production";
  subscription: { id: string; status: string; price: PriceRow | null } | null;
}

export interface ResourceConsent {
  productName: string;
  productSlug: string;
  providerName: string;
  resourceUrl: string;
  options: ConsentTargetOption[];
  /** The option preselected: the first with an active subscription, else the first. */
  selected: string;
  anyActive: boolean;
}

export async function resourceConsent(
  businessId: string,
  client: { environment: string | null },
  resource: McpResource,
): Promise<ResourceConsent> {
  const environments = environmentsFor(client);
  const [provider, projects, subscriptions] = await Promise.all([
    db.business.findUnique({ where: { id: resource.product.businessId }, select: { name: true } }),
    db.project.findMany({ where: { businessId }, orderBy: { createdAt: "asc" }, select: { id: true, name: true }, take: 50 }),
    db.subscription.findMany({
      where: { businessId, productId: resource.product.id, environment: { in: environments }, currentSlot: { not: null } },
      select: { id: true, projectId: true, environment: true, status: true, priceId: true },
    }),
  ]);
  const prices = subscriptions.length
    ? await db.price.findMany({ where: { id: { in: [...new Set(subscriptions.map((s) => s.priceId))] } } })
    : [];
  const options: ConsentTargetOption[] = projects.flatMap((p) =>
    environments.map((environment) => {
      const sub = subscriptions.find((s) => s.projectId === p.id && s.environment === environment);
      return {
        value: `${p.id}:${environment}`,
        projectName: p.name,
        environment,
        subscription: sub ? { id: sub.id, status: sub.status, price: prices.find((x) => x.id === sub.priceId) ?? null } : null,
      };
    }),
  );
  const active = options.find((o) => o.subscription?.status === "active");
  return {
    productName: resource.product.name,
    productSlug: resource.product.slug,
    providerName: provider?.name ?? "its provider",
    resourceUrl: resource.url,
    options,
    selected: (active ?? options[0])?.value ?? "",
    anyActive: !!active,
  };
}
