"use client";
import { useState, useTransition, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { buyCreditsAction, grantCreditsAction, setAutoRechargeAction, setSpendCapAction } from "@/app/portal/credit-actions";
import { formErrors, splitFormErrors, type FieldErrors, type FormError } from "@/lib/portal/form-errors";
import { Button, Field, Input, Select } from "@/components/ui/primitives";

// The forms of prepaid credits and spending limits (issue 39): buying credits with the subscription's card, auto
// top-up, the spend cap, and the provider's grant. Each sends what was typed to a server action that runs the
// API's own domain function; a refusal sits under the field it is about (a declined card under the amount), or
// above the buttons when no field of the form is meant.

type Result = { ok: boolean; error?: FormError };

/** A form's submit, pending state and errors by field; `done` runs after a success (the page is then refreshed). */
function useCreditForm(fields: readonly string[], cardField?: string) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [errors, setErrors] = useState<{ fields: FieldErrors; form: string | null }>({ fields: {}, form: null });
  const [saved, setSaved] = useState<string | null>(null);
  function run(work: () => Promise<Result>, success: string, done?: () => void) {
    start(async () => {
      const r = await work();
      if (!r.ok) {
        const all = formErrors(r.error ?? { message: "Something went wrong. Try again." });
        // A card refused (CARD_DECLINED, or no card on the subscription) is about the payment: under `cardField`.
        if (cardField && all.paymentMethod) {
          all[cardField] = all.paymentMethod;
          delete all.paymentMethod;
        }
        setSaved(null);
        return setErrors(splitFormErrors(all, fields));
      }
      setErrors({ fields: {}, form: null });
      setSaved(success);
      done?.();
      router.refresh();
    });
  }
  return { pending, errors, saved, run };
}

/** Not a form action: React resets a form after its action, and a refused amount would be typed again. */
function submitted(e: FormEvent<HTMLFormElement>): Record<string, string> {
  e.preventDefault();
  return Object.fromEntries([...new FormData(e.currentTarget).entries()].map(([k, v]) => [k, String(v)]));
}

function FormMessage({ error, saved, id }: { error: string | null; saved: string | null; id: string }) {
  if (error)
    return (
      <p role="alert" className="text-sm text-red-600 dark:text-red-400" data-testid={`${id}-error`}>
        {error}
      </p>
    );
  return (
    <p role="status" className="min-h-0 text-sm text-emerald-700 dark:text-emerald-400" data-testid={`${id}-status`}>
      {saved ?? ""}
    </p>
  );
}

/** An amount of money typed in the currency's major unit, its error under it. */
function MoneyField({
  id,
  name,
  label,
  defaultValue,
  error,
}: {
  id: string;
  name: string;
  label: string;
  defaultValue?: string;
  error?: string;
}) {
  return (
    <Field label={label} htmlFor={id} error={error}>
      <Input id={id} name={name} inputMode="decimal" autoComplete="off" defaultValue={defaultValue ?? ""} invalid={!!error} />
    </Field>
  );
}

/** Save, and (when the setting exists) a second button that turns it off. */
function SaveOrRemove({
  pending,
  save,
  remove,
  onRemove,
}: {
  pending: boolean;
  save: string;
  remove: string | null;
  onRemove: () => void;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" disabled={pending}>
        {save}
      </Button>
      {remove ? (
        <Button type="button" variant="secondary" disabled={pending} onClick={onRemove}>
          {remove}
        </Button>
      ) : null}
    </div>
  );
}

export function BuyCreditsForm({
  subscriptionId,
  currency,
  card,
  testMode,
}: {
  subscriptionId: string;
  currency: string;
  card: string | null;
  testMode: boolean;
}) {
  const { pending, errors, saved, run } = useCreditForm(["amount"], "amount");
  const id = `buy-credits-${subscriptionId}`;
  return (
    <form
      method="post"
      noValidate
      className="space-y-2"
      aria-label="Buy credits"
      onSubmit={(e) => {
        const form = e.currentTarget;
        const v = submitted(e);
        run(
          () => buyCreditsAction(subscriptionId, { amount: v.amount }),
          `Added ${v.amount} ${currency} of credits.`,
          () => form.reset(),
        );
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-full min-w-0 sm:w-48">
          <Field label={`Amount (${currency})`} htmlFor={id} error={errors.fields.amount}>
            <Input id={id} name="amount" inputMode="decimal" autoComplete="off" placeholder="10.00" invalid={!!errors.fields.amount} />
          </Field>
        </div>
        <Button type="submit" disabled={pending}>
          {pending ? "Charging…" : "Buy credits"}
        </Button>
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {card ? `Charged to ${card} at once` : "The subscription has no card"}
        {testMode ? " (test mode: never charged)" : ""}. Credits are kept in {currency} with this seller only.
      </p>
      <FormMessage id={id} error={errors.form} saved={saved} />
    </form>
  );
}

export function AutoRechargeForm({
  subscriptionId,
  currency,
  current,
}: {
  subscriptionId: string;
  currency: string;
  current: { below: string; amount: string; monthlyLimit: string } | null;
}) {
  const { pending, errors, saved, run } = useCreditForm(["below", "amount", "monthlyLimit"], "amount");
  const id = `auto-recharge-${subscriptionId}`;
  return (
    <form
      method="post"
      noValidate
      className="space-y-3"
      aria-label="Auto top-up"
      onSubmit={(e) => {
        const v = submitted(e);
        run(() => setAutoRechargeAction(subscriptionId, v), "Auto top-up is on.");
      }}
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <MoneyField
          id={`${id}-below`}
          name="below"
          label={`When the balance falls below (${currency})`}
          defaultValue={current?.below}
          error={errors.fields.below}
        />
        <MoneyField
          id={`${id}-amount`}
          name="amount"
          label={`Buy (${currency})`}
          defaultValue={current?.amount}
          error={errors.fields.amount}
        />
        <MoneyField
          id={`${id}-limit`}
          name="monthlyLimit"
          label={`At most a month (${currency})`}
          defaultValue={current?.monthlyLimit}
          error={errors.fields.monthlyLimit}
        />
      </div>
      <SaveOrRemove
        pending={pending}
        save={current ? "Save auto top-up" : "Turn on auto top-up"}
        remove={current ? "Turn off" : null}
        onRemove={() => run(() => setAutoRechargeAction(subscriptionId, null), "Auto top-up is off.")}
      />
      <FormMessage id={id} error={errors.form} saved={saved} />
    </form>
  );
}

export function SpendCapForm({
  subscriptionId,
  currency,
  current,
}: {
  subscriptionId: string;
  currency: string;
  current: { amount: string; action: "block" | "notify"; thresholds: number[] } | null;
}) {
  const { pending, errors, saved, run } = useCreditForm(["amount", "action", "thresholds"]);
  const id = `spend-cap-${subscriptionId}`;
  return (
    <form
      method="post"
      noValidate
      className="space-y-3"
      aria-label="Spend cap"
      onSubmit={(e) => {
        const v = submitted(e);
        run(() => setSpendCapAction(subscriptionId, v), "The spend cap is saved.");
      }}
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <MoneyField
          id={`${id}-amount`}
          name="amount"
          label={`Cap per period (${currency})`}
          defaultValue={current?.amount}
          error={errors.fields.amount}
        />
        <Field label="At the cap" htmlFor={`${id}-action`} error={errors.fields.action}>
          <Select id={`${id}-action`} name="action" defaultValue={current?.action ?? "block"}>
            <option value="block">Refuse calls</option>
            <option value="notify">Notify only</option>
          </Select>
        </Field>
        <Field label="Alert at (% of the cap)" htmlFor={`${id}-thresholds`} error={errors.fields.thresholds}>
          <Input
            id={`${id}-thresholds`}
            name="thresholds"
            autoComplete="off"
            defaultValue={(current?.thresholds ?? [50, 80, 100]).join(", ")}
            invalid={!!errors.fields.thresholds}
          />
        </Field>
      </div>
      <SaveOrRemove
        pending={pending}
        save={current ? "Save cap" : "Set cap"}
        remove={current ? "Remove cap" : null}
        onRemove={() => run(() => setSpendCapAction(subscriptionId, null), "The spend cap is removed.")}
      />
      <FormMessage id={id} error={errors.form} saved={saved} />
    </form>
  );
}

export function GrantCreditsForm({
  customerId,
  subscriptions,
}: {
  customerId: string;
  subscriptions: { id: string; label: string; currency: string }[];
}) {
  const { pending, errors, saved, run } = useCreditForm(["subscription", "amount", "expiresAt", "note"]);
  const [chosen, setChosen] = useState(subscriptions[0]?.id ?? "");
  const currency = subscriptions.find((s) => s.id === chosen)?.currency ?? "";
  const id = `grant-credits-${customerId}`;
  return (
    <form
      method="post"
      noValidate
      className="space-y-3"
      aria-label="Grant credits"
      onSubmit={(e) => {
        const form = e.currentTarget;
        const v = submitted(e);
        run(
          () => grantCreditsAction(customerId, v),
          `Granted ${v.amount} ${currency} of credits.`,
          () => form.reset(),
        );
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Subscription" htmlFor={`${id}-subscription`} error={errors.fields.subscription}>
          <Select id={`${id}-subscription`} name="subscription" value={chosen} onChange={(e) => setChosen(e.target.value)}>
            {subscriptions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={`Amount${currency ? ` (${currency})` : ""}`} htmlFor={`${id}-amount`} error={errors.fields.amount}>
          <Input id={`${id}-amount`} name="amount" inputMode="decimal" autoComplete="off" invalid={!!errors.fields.amount} />
        </Field>
        <Field
          label="Expires on (optional)"
          htmlFor={`${id}-expires`}
          error={errors.fields.expiresAt}
          hint="What is left lapses at the end of that day (UTC)."
        >
          <Input id={`${id}-expires`} name="expiresAt" type="date" invalid={!!errors.fields.expiresAt} />
        </Field>
        <Field label="Note" htmlFor={`${id}-note`} error={errors.fields.note} hint="Why: the customer sees it in its ledger.">
          <Input id={`${id}-note`} name="note" maxLength={500} autoComplete="off" invalid={!!errors.fields.note} />
        </Field>
      </div>
      <Button type="submit" disabled={pending || !subscriptions.length}>
        {pending ? "Granting…" : "Grant credits"}
      </Button>
      <FormMessage id={id} error={errors.form} saved={saved} />
    </form>
  );
}
