import { now } from "@/lib/clock";
import { ApiError } from "@/lib/http/errors";
import { adminGate, refuseWith } from "@/lib/admin/admin-gate";
import { platformFeeReport } from "@/lib/billing/platform-fees";

// GET /api/admin/platform-fees?month=YYYY-MM: the platform's fee income of a month (lib/billing/platform-fees.ts),
// for the deployment's administrator only (Authorization: Bearer <PLATFORM_ADMIN_TOKEN>; without a configured token
// the route does not exist).

export async function getPlatformFees(req: Request): Promise<Response> {
  const refused = adminGate(req);
  if (refused) return refused;
  const month = new URL(req.url).searchParams.get("month") ?? now().toISOString().slice(0, 7);
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month))
    return refuseWith(
      req,
      new ApiError({
        status: 400,
        type: "validation_error",
        code: "INVALID_PARAMETER",
        field: "month",
        message: `month must be YYYY-MM, got '${month.slice(0, 20)}'.`,
      }),
    );
  return Response.json(await platformFeeReport(month));
}
