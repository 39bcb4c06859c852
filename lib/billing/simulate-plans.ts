import { db } from "@/lib/db/client";
import { CURRENT_SUBSCRIPTION_STATUSES } from "@/lib/schemas/billing";
import { now } from "@/lib/clock";
import type { AuthContext } from "@/lib/http/auth-context";
import { compilePrice, type PriceLike } from "./price-plan";
import { ratePeriod, invoiceTotal, type Quantities } from "./rate-events";
import { minorToDecimal } from "./money";
import { periodQuantities } from "./period-usage";

// The plan simulator of the portal's Usage view: the project's real usage of the last 30 days priced under every
// active price of the business (in this environment), and tiered prices under both tier interpretations, so a
// customer sees what each plan would have cost before choosing one.

export interface SimulatedPlan {
  priceId: string;
  productName: string;
  priceName: string;
  shape: string;
  currency: string;
  total: number;
  totalDecimal: string;
  lines: { description: string; quantity: number; amount: number }[];
  current: boolean;
}

function shapeOf(p: PriceLike & { tiers: unknown }, mode?: string): string {
  if (p.type === "subscription") return "subscription + overage";
  if (p.type === "metered") return "metered resources";
  if (p.tiers) return `tiered (${mode ?? p.tiersMode ?? "graduated"})`;
  return "pay per call";
}

export async function simulatePlans(
  auth: AuthContext,
  days = 30,
): Promise<{ from: string; to: string; usage: Quantities; plans: SimulatedPlan[] }> {
  const to = now();
  const from = new Date(to.getTime() - days * 86_400_000);
  const [usage, prices, current] = await Promise.all([
    periodQuantities({ projectId: auth.projectId, environment: auth.environment, start: from, end: to }),
    db.price.findMany({
      where: { businessId: auth.businessId, environment: auth.environment, isActive: true, product: { isActive: true } },
      include: { product: { select: { name: true } } },
      orderBy: { createdAt: "asc" },
      take: 100,
    }),
    db.subscription.findFirst({
      where: { projectId: auth.projectId, environment: auth.environment, status: { in: CURRENT_SUBSCRIPTION_STATUSES } },
    }),
  ]);
  const plans: SimulatedPlan[] = [];
  for (const p of prices) {
    const modes: (string | undefined)[] = p.tiers
      ? [p.tiersMode ?? "graduated", p.tiersMode === "volume" ? "graduated" : "volume"]
      : [undefined];
    for (const mode of modes) {
      const lines = ratePeriod(compilePrice({ ...p, tiersMode: mode ?? p.tiersMode }), usage, { start: from, end: to });
      const total = invoiceTotal(lines);
      plans.push({
        priceId: p.id,
        productName: p.product.name,
        priceName: p.name,
        shape: shapeOf(p, mode),
        currency: p.currency,
        total,
        totalDecimal: minorToDecimal(BigInt(total), p.currency),
        lines: lines.map((l) => ({ description: l.description, quantity: l.quantity, amount: l.amount })),
        current: current?.priceId === p.id && (mode === undefined || mode === (p.tiersMode ?? "graduated")),
      });
    }
  }
  plans.sort((a, b) => (a.currency === b.currency ? a.total - b.total : a.currency.localeCompare(b.currency)));
  return { from: from.toISOString(), to: to.toISOString(), usage, plans };
}
