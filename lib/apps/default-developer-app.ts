import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { tenantWhere } from "@/lib/http/tenant";
import type { AuthContext } from "@/lib/http/auth-context";
import { emitEvent } from "@/lib/events/emit-event";
import { recordAudit } from "@/lib/audit/record-audit";
import type { Prisma } from "@/generated/prisma-sqlite";
import { parseAppDefinition } from "./parse-app";
import { freeAppSlug } from "./app-rules";
import { serializeApp } from "./manage-apps";

// A product published without a Developer app presenting it gets one: its developer portal at /p/{slug}, published,
// at the product's own slug when that is free, with the product's gateway as the API's base URL. Runs in the
// transaction of the product write that publishes, so the product and its portal appear together.

type Tx = Prisma.TransactionClient;

/** The origin the gateway address is made from when the caller's is not known (a portal action). */
export const configuredBaseUrl = () => process.env.PUBLIC_BASE_URL?.replace(/\/+$/, "") || null;

export async function ensureDeveloperApp(
  tx: Tx,
  auth: AuthContext,
  product: { id: string; name: string; description: string | null; slug: string | null },
  baseUrl: string | null,
): Promise<string | null> {
  const developerApps = await tx.app.findMany({ where: { ...tenantWhere(auth), type: "Developer" }, select: { products: true } });
  if (developerApps.some((a) => (a.products as string[]).includes(product.id))) return null;
  const slug = await freeAppSlug(product.name, auth.businessId, product.slug, tx as never);
  const app = parseAppDefinition("Developer", {
    name: product.name.slice(0, 200),
    ...(product.description ? { description: product.description.slice(0, 2000) } : {}),
    // Without a known origin the portal shows the gateway at the address the visitor used.
    config: baseUrl && product.slug ? { apiBaseUrl: `${baseUrl}/gw/${product.slug}` } : {},
  });
  const { type: _t, name, description, ...definition } = app;
  const t = now();
  const row = await tx.app.create({
    data: {
      id: newId("app"),
      ...tenantWhere(auth),
      type: "Developer",
      name,
      description: description ?? null,
      slug,
      status: "published",
      products: [product.id],
      definition: definition as unknown as Prisma.InputJsonValue,
      createdAt: t,
      updatedAt: t,
    },
  });
  await emitEvent({ businessId: auth.businessId, environment: auth.environment, type: "app.created", data: { ...serializeApp(row) } }, tx);
  recordAudit({
    businessId: auth.businessId,
    environment: auth.environment,
    actorType: "system",
    action: "app.created",
    targetType: "app",
    targetId: row.id,
    details: { reason: "product published", productId: product.id, slug },
  });
  return row.id;
}
