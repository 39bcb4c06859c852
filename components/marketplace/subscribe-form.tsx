"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { subscribeAction } from "@/app/portal/marketplace-actions";
import { setEnvironmentAction } from "@/app/portal/actions";
import { Button, Field, Input } from "@/components/ui/primitives";

// The card form of a subscription. The API's refusals come back in words and sit next to the field they are
// about: a declined card under the number (402), an existing subscription to the product above the button (409).
// A product's developer portal passes `chooseEnvironment` (test, the default, or live: the portal then shows the
// chosen one) and `successHref`, the page inside that portal to go on to.

/** Which input an error is about: the form's own names, or the API's `paymentMethod.card.*` paths. */
const FIELDS: Record<string, string> = {
  number: "number",
  "paymentMethod.card.number": "number",
  // runAction answers the first part of the API's path: a card refused as a whole sits under its number.
  paymentMethod: "number",
  expiry: "expiry",
  "paymentMethod.card.expMonth": "expiry",
  "paymentMethod.card.expYear": "expiry",
  cvc: "cvc",
  "paymentMethod.card.cvc": "cvc",
};

export function SubscribeForm({
  priceId,
  environment,
  chooseEnvironment = false,
  successHref,
}: {
  priceId: string;
  environment: "test" | "production";
  chooseEnvironment?: boolean;
  successHref?: string;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const [chosen, setChosen] = useState<"test" | "production">(chooseEnvironment ? "test" : environment);
  const errorOn = (f: string) => (error?.field === f ? error.message : null);

  function submit(form: FormData) {
    const value = (k: string) => String(form.get(k) ?? "");
    start(async () => {
      const card = { priceId, number: value("number"), expiry: value("expiry"), cvc: value("cvc") };
      const r = await subscribeAction(chooseEnvironment ? { ...card, environment: chosen } : card);
      if (!r.ok) {
        const e = r.error ?? { message: "Could not subscribe." };
        return setError({ field: FIELDS[e.field ?? ""] ?? "form", message: e.message });
      }
      setError(null);
      // The pages that follow (keys, docs) show the environment subscribed in.
      if (chooseEnvironment) await setEnvironmentAction(chosen);
      router.push(successHref ?? `/portal/subscriptions/${r.data!.id}`);
    });
  }

  return (
    <form
      method="post"
      onSubmit={(e) => {
        // Not a form action: React resets a form after its action, and a refused card or URL would be typed again.
        e.preventDefault();
        submit(new FormData(e.currentTarget));
      }}
      className="grid max-w-md gap-4"
      noValidate
    >
      {chooseEnvironment ? (
        <fieldset className="space-y-1">
          <legend className="text-sm font-medium">Environment</legend>
          <div className="flex flex-wrap gap-4 text-sm">
            {(
              [
                ["test", "Test: test keys, never billed"],
                ["production", "Live: live keys, billed"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="inline-flex items-center gap-2">
                <input type="radio" name="environment" value={value} checked={chosen === value} onChange={() => setChosen(value)} />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <Field
        label="Card number"
        htmlFor="card-number"
        hint={chosen === "test" ? "Test mode: use 4242 4242 4242 4242; nothing is charged." : undefined}
        error={errorOn("number")}
      >
        <Input
          id="card-number"
          name="number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          invalid={!!errorOn("number")}
        />
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field label="Expiry (MM/YY)" htmlFor="card-expiry" error={errorOn("expiry")}>
          <Input id="card-expiry" name="expiry" autoComplete="cc-exp" placeholder="12/30" invalid={!!errorOn("expiry")} />
        </Field>
        <Field label="CVC" htmlFor="card-cvc" error={errorOn("cvc")}>
          <Input id="card-cvc" name="cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" invalid={!!errorOn("cvc")} />
        </Field>
      </div>
      {error && !["number", "expiry", "cvc"].includes(error.field) ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error.message}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Subscribing…" : "Subscribe"}
        </Button>
      </div>
    </form>
  );
}
