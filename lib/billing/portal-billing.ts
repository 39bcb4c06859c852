import { db } from "@/lib/db/client";
import { CURRENT_SUBSCRIPTION_STATUSES } from "@/lib/schemas/billing";
import { tenantWhere } from "@/lib/http/tenant";
import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { upcomingInvoice, serializeInvoice } from "./invoices";
import { simulatePlans } from "./simulate-plans";

/** What the portal's Usage view shows of billing: the upcoming invoice of each current subscription (`upcoming`
 * is the first, null without one), the last invoices of the project and the plan simulator. */
export async function billingForPortal(auth: AuthContext) {
  const current = await db.subscription.findMany({
    where: { ...tenantWhere(auth), projectId: auth.projectId, status: { in: CURRENT_SUBSCRIPTION_STATUSES } },
    orderBy: { createdAt: "asc" },
  });
  // One upcoming invoice per product subscribed: each is its own seller's.
  const upcomingBySubscription = await Promise.all(
    current.map((s) =>
      upcomingInvoice(auth, auth.projectId, s.id).catch((e) => {
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }),
    ),
  ).then((list) => list.filter((i) => i !== null));
  const upcoming = upcomingBySubscription[0] ?? null;
  const [rows, simulation] = await Promise.all([
    db.invoice.findMany({
      where: { ...tenantWhere(auth), projectId: auth.projectId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 12,
    }),
    simulatePlans(auth),
  ]);
  return { upcoming, upcomingBySubscription, invoices: rows.map((r) => serializeInvoice(r)), simulation };
}
