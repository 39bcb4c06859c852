"use client";
import { useOptimistic, useTransition } from "react";
import { useRouter } from "next/navigation";
import { setEnvironmentAction } from "@/app/portal/actions";

/**
 * Test or live data, like Stripe's test mode: a switch (on = test mode); every view shows the chosen environment
 * only, and the portal shows an orange band while test mode is on.
 */
export function EnvironmentSwitch({ environment, id = "test-mode" }: { environment: "test" | "production"; id?: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [testMode, setTestMode] = useOptimistic(environment === "test");
  return (
    <div className="inline-flex items-center gap-2 text-sm">
      <span
        id={`${id}-label`}
        className={testMode ? "font-semibold text-orange-800 dark:text-orange-300" : "font-medium text-slate-700 dark:text-slate-200"}
      >
        Test mode
      </span>
      <button
        type="button"
        role="switch"
        aria-checked={testMode}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-state`}
        disabled={pending}
        onClick={() =>
          start(async () => {
            setTestMode(!testMode);
            await setEnvironmentAction(testMode ? "production" : "test");
            router.refresh();
          })
        }
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:cursor-wait ${
          testMode ? "bg-orange-600" : "bg-slate-400 dark:bg-slate-600"
        }`}
      >
        <span
          aria-hidden="true"
          className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${testMode ? "translate-x-5" : "translate-x-0"}`}
        />
      </button>
      <span id={`${id}-state`} className="sr-only">
        {testMode ? "On: showing test data" : "Off: showing live data"}
      </span>
    </div>
  );
}
