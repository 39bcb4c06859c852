"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { startPayoutOnboardingAction } from "@/app/portal/payout-actions";
import { Button } from "@/components/ui/primitives";

// "Set up payouts" / "Continue onboarding": the action sends the browser on to Stripe's onboarding; with the test
// payment provider the account is ready at once and the page is drawn again with its new state. A refusal (a role
// that may not, Stripe unreachable) is shown as the API says it.

export function PayoutOnboardingButton({ label }: { label: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);

  function onboard() {
    start(async () => {
      const r = await startPayoutOnboardingAction();
      if (!r.ok) return setError(r.error?.message ?? "Could not start payout onboarding. Try again.");
      setError(null);
      router.refresh();
    });
  }

  return (
    <div className="space-y-2">
      <Button onClick={onboard} disabled={pending} data-testid="payout-onboard">
        {pending ? "Working…" : label}
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400" data-testid="payout-onboard-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
