// GET /api/portal/invoices/{id}/lines/{lineId}/usage: a line's usage events as a CSV download (signed-in users)
import { getPortalContext } from "@/lib/portal/portal-context";
import { invoiceLineCsv } from "@/lib/billing/invoices";
import { ApiError } from "@/lib/http/errors";

export async function GET(_req: Request, { params }: { params: Promise<{ id: string; lineId: string }> }) {
  const ctx = await getPortalContext();
  if (!ctx) return Response.json({ error: { code: "UNAUTHENTICATED", message: "Sign in to the portal." } }, { status: 401 });
  const { id, lineId } = await params;
  try {
    const csv = await invoiceLineCsv(ctx.auth, id, lineId);
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Cache-Control": "no-store",
        "Content-Disposition": `attachment; filename="${id}-${lineId.replace(/[^A-Za-z0-9_-]/g, "")}.csv"`,
      },
    });
  } catch (e) {
    const err =
      e instanceof ApiError
        ? e
        : new ApiError({ status: 500, type: "server_error", code: "INTERNAL_ERROR", message: "Something went wrong." });
    return Response.json({ error: { code: err.code, message: err.message } }, { status: err.status });
  }
}
