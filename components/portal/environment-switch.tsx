"use client";
import { useTransition } from "react";
import { useRouter } from "next/navigation";
import { setEnvironmentAction } from "@/app/portal/actions";

/** Test or live data, like Stripe's test mode: every view shows the chosen environment only. */
export function EnvironmentSwitch({ environment }: { environment: "test" | "production" }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const live = environment === "production";
  return (
    <label className="inline-flex cursor-pointer items-center gap-2 text-sm">
      <span className={live ? "font-semibold text-emerald-700 dark:text-emerald-300" : "font-semibold text-amber-700 dark:text-amber-300"}>
        {live ? "Live data" : "Test data"}
      </span>
      <input
        type="checkbox"
        role="switch"
        aria-label="Show live data"
        checked={live}
        disabled={pending}
        className="h-4 w-8 cursor-pointer accent-emerald-600"
        onChange={(e) =>
          start(async () => {
            await setEnvironmentAction(e.target.checked ? "production" : "test");
            router.refresh();
          })
        }
      />
    </label>
  );
}
