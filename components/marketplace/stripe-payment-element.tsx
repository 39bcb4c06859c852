"use client";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { usePathname, useRouter } from "next/navigation";
import { addPaymentMethodAction, setupPaymentMethodAction } from "@/app/portal/payment-actions";
import { Button } from "@/components/ui/primitives";
import { savedCardMessage } from "./payment-method-form";
import {
  STRIPE_UNAVAILABLE,
  loadStripeJs,
  stripeAppearance,
  type StripeElements,
  type StripeInstance,
  type StripeSetupIntent,
} from "./stripe-js";

// The card form with Stripe (PAYMENT_PROVIDER=stripe): Stripe's Payment Element, in Stripe's frames, so the card
// goes from the browser to Stripe and never through this server. Rendering it adds Stripe.js to the page (nothing
// else loads it), asks the server for a SetupIntent, and mounts the element; "Save card" confirms the SetupIntent
// (the bank may ask the card holder, in Stripe's dialog) and hands its PaymentMethod (pm_…) to
// POST /v1/payment-methods' domain function, which makes it the default and pays open invoices with it.
// A method that leaves the page to confirm (a bank's own page) comes back here with Stripe's query parameters,
// and is saved then.

type State = "loading" | "ready" | "saving" | "saved" | "unavailable" | "failed";

const paymentMethodId = (intent: StripeSetupIntent | undefined) =>
  typeof intent?.payment_method === "string" ? intent.payment_method : (intent?.payment_method?.id ?? null);

export function StripePaymentElement({ subscriptionId }: { subscriptionId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const mountRef = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<{ stripe: StripeInstance; elements: StripeElements } | null>(null);
  const [state, setState] = useState<State>("loading");
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  // "Try again" and "Add another card" start over with a new SetupIntent (one confirms one card).
  const [round, setRound] = useState(0);

  async function save(intent: StripeSetupIntent | undefined) {
    const pm = paymentMethodId(intent);
    if (!pm) {
      setError("Stripe did not answer with the card. Try again.");
      return setState("ready");
    }
    const r = await addPaymentMethodAction(subscriptionId, pm);
    if (!r.ok || !r.data) {
      setError(r.error?.message ?? "Could not save the card.");
      return setState("failed");
    }
    setSaved(savedCardMessage(r.data));
    setState("saved");
    router.refresh();
  }

  useEffect(() => {
    let cancelled = false;
    let unmount: (() => void) | null = null;
    (async () => {
      const [Stripe, setup] = await Promise.all([loadStripeJs().catch(() => null), setupPaymentMethodAction()]);
      if (cancelled) return;
      if (!Stripe) return setState("unavailable");
      if (!setup.ok || !setup.data) {
        setError(setup.error?.message ?? "Could not start the card form.");
        return setState("failed");
      }
      if (!setup.data.publishableKey) {
        setError("Stripe's card form is not set up on this server: STRIPE_PUBLISHABLE_KEY is missing.");
        return setState("failed");
      }
      const stripe = Stripe(setup.data.publishableKey);
      const elements = stripe.elements({ clientSecret: setup.data.clientSecret, appearance: stripeAppearance() });
      const element = elements.create("payment");
      // Frames a blocker stops may never say so: a form not drawn within 20 s is as good as not loaded.
      const stalled = window.setTimeout(() => {
        if (!cancelled) setState((s) => (s === "loading" ? "unavailable" : s));
      }, 20_000);
      element.on("ready", () => {
        window.clearTimeout(stalled);
        if (!cancelled) setState((s) => (s === "loading" ? "ready" : s));
      });
      element.on("loaderror", (e) => {
        window.clearTimeout(stalled);
        if (cancelled) return;
        if (!e.error?.message) return setState("unavailable");
        setError(`Stripe's card form could not load: ${e.error.message}`);
        setState("failed");
      });
      if (mountRef.current) element.mount(mountRef.current);
      stripeRef.current = { stripe, elements };
      const dark = window.matchMedia?.("(prefers-color-scheme: dark)");
      const follow = () => elements.update({ appearance: stripeAppearance() });
      dark?.addEventListener("change", follow);
      unmount = () => {
        window.clearTimeout(stalled);
        dark?.removeEventListener("change", follow);
        element.destroy();
      };
      // Back from a method that confirmed on another page: Stripe added the SetupIntent to this page's address.
      const back = new URLSearchParams(window.location.search);
      const secret = back.get("setup_intent_client_secret");
      if (secret) {
        router.replace(pathname, { scroll: false });
        setState("saving");
        const { error: refused, setupIntent } = await stripe.retrieveSetupIntent(secret);
        if (cancelled) return;
        if (refused || setupIntent?.status !== "succeeded") {
          setError(refused?.message ?? "The card was not confirmed. Try again.");
          return setState("ready");
        }
        await save(setupIntent);
      }
    })();
    return () => {
      cancelled = true;
      unmount?.();
      stripeRef.current = null;
    };
    // save and router are stable for this component's purpose; the form starts over only when `round` changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [round]);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const s = stripeRef.current;
    if (!s || state !== "ready") return;
    setState("saving");
    setError(null);
    const { error: refused, setupIntent } = await s.stripe.confirmSetup({
      elements: s.elements,
      redirect: "if_required",
      confirmParams: { return_url: window.location.href.split("?")[0] },
    });
    if (refused) {
      // A card problem (declined, incomplete) is also shown by the element itself, beside the field it is about.
      setError(refused.message ?? "Stripe refused the card.");
      return setState("ready");
    }
    await save(setupIntent);
  }

  function startOver() {
    setError(null);
    setSaved(null);
    setState("loading");
    setRound((n) => n + 1);
  }

  if (state === "unavailable")
    return (
      <div
        role="alert"
        data-testid="stripe-unavailable"
        className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
      >
        <p>{STRIPE_UNAVAILABLE}</p>
        <Button type="button" variant="secondary" onClick={startOver}>
          Try again
        </Button>
      </div>
    );

  return (
    <form
      method="post"
      noValidate
      onSubmit={submit}
      className="space-y-3"
      aria-label="Add a card with Stripe"
      aria-busy={state === "loading"}
    >
      {state === "saved" ? null : (
        // Stripe's frames go here; the space is kept while they load so the page does not jump.
        <div ref={mountRef} data-testid="stripe-payment-element" className={state === "loading" ? "min-h-40" : undefined} />
      )}
      {state === "loading" ? (
        <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
          Loading Stripe&apos;s card form…
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400" data-testid="stripe-card-error">
          {error}
        </p>
      ) : null}
      {saved ? (
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400" data-testid="payment-method-saved">
          {saved}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {state === "saved" || state === "failed" ? (
          <Button type="button" variant="secondary" onClick={startOver}>
            {state === "saved" ? "Add another card" : "Try again"}
          </Button>
        ) : (
          <Button type="submit" disabled={state !== "ready"}>
            {state === "saving" ? "Saving…" : "Save card"}
          </Button>
        )}
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        The card is typed into Stripe&apos;s form and goes straight to Stripe; this server keeps only its brand, last four digits and
        expiry.
      </p>
    </form>
  );
}
