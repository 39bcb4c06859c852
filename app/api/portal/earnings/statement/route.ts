// GET /api/portal/earnings/statement?month=YYYY-MM: the month's earnings statement as a CSV download (signed-in users)
import { getPortalContext } from "@/lib/portal/portal-context";
import { grants } from "@/lib/auth/scopes";
import { now } from "@/lib/clock";
import { earningsStatementCsv } from "@/lib/billing/payouts";
import { EarningsMonthQuery } from "@/lib/schemas/payouts";

export async function GET(req: Request) {
  const ctx = await getPortalContext();
  if (!ctx) return Response.json({ error: { code: "UNAUTHENTICATED", message: "Sign in to the portal." } }, { status: 401 });
  if (!grants(ctx.auth.scopes, "invoices:read"))
    return Response.json(
      { error: { code: "INSUFFICIENT_SCOPE", message: `Your role (${ctx.role}) cannot read earnings.` } },
      { status: 403 },
    );
  const asked = EarningsMonthQuery.safeParse({ month: new URL(req.url).searchParams.get("month") ?? undefined });
  if (!asked.success)
    return Response.json({ error: { code: "INVALID_PARAMETER", message: "'month' must be a month as YYYY-MM." } }, { status: 400 });
  const month = asked.data.month ?? now().toISOString().slice(0, 7);
  try {
    return new Response(await earningsStatementCsv(ctx.auth, month), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Cache-Control": "no-store",
        "Content-Disposition": `attachment; filename="earnings-${ctx.environment}-${month}.csv"`,
      },
    });
  } catch (e) {
    console.error("earnings statement failed", e);
    return Response.json({ error: { code: "INTERNAL_ERROR", message: "Something went wrong." } }, { status: 500 });
  }
}
