"use server";
// The provider's payout onboarding (issue 60): "Set up payouts" / "Continue onboarding" runs the same domain function
// as POST /v1/payout-account as the signed-in user and sends the browser to Stripe's onboarding link it answers.
// With the test payment provider the account is ready at once and there is no link: the page shows the new state.
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { createPayoutAccount } from "@/lib/billing/payouts";
import { baseUrlFor } from "@/lib/http/public-base-url";
import { runAction, type ActionResult } from "@/lib/portal/run-action";

/** The origin the user came from (PUBLIC_BASE_URL when set): Stripe sends them back to its /portal/payouts. */
async function requestOrigin(): Promise<string> {
  const h = await headers();
  const protocol = h.get("x-forwarded-proto") === "https" ? "https:" : "http:";
  return baseUrlFor(protocol, h.get("host"), "http://localhost");
}

export async function startPayoutOnboardingAction(): Promise<ActionResult<{ chargesEnabled: boolean; payoutsEnabled: boolean }>> {
  const result = await runAction("invoices:write", async (ctx) => createPayoutAccount(ctx.auth, await requestOrigin()), [
    "/portal/payouts",
  ]);
  if (!result.ok || !result.data) return { ok: false, error: result.error };
  // Outside runAction: redirect() throws Next's redirect signal, which runAction would take for a failure.
  if (result.data.onboardingUrl) redirect(result.data.onboardingUrl);
  return { ok: true, data: { chargesEnabled: result.data.chargesEnabled, payoutsEnabled: result.data.payoutsEnabled } };
}
