import { db } from "@/lib/db/client";
import { tenantWhere } from "@/lib/http/tenant";
import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { upcomingInvoice, serializeInvoice } from "./invoices";
import { simulatePlans } from "./simulate-plans";

/** What the portal's Usage view shows of billing: the upcoming invoice (null without a subscription), the last
 * invoices of the project and the plan simulator. */
export async function billingForPortal(auth: AuthContext) {
  const upcoming = await upcomingInvoice(auth).catch((e) => {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  });
  const [rows, simulation] = await Promise.all([
    db.invoice.findMany({
      where: { ...tenantWhere(auth), projectId: auth.projectId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 12,
    }),
    simulatePlans(auth),
  ]);
  return { upcoming, invoices: rows.map((r) => serializeInvoice(r)), simulation };
}
