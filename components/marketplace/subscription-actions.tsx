"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { cancelSubscriptionAction, createProductKeyAction } from "@/app/portal/marketplace-actions";
import { Button, Card, Field, Input } from "@/components/ui/primitives";
import { CopyButton } from "@/components/ui/copy-button";

// A subscription's two actions: a key that may call only this product (its secret shown once), and canceling,
// at the end of the period or now (the period so far is then invoiced and charged).

export function ProductKeyCard({ subscriptionId, productName, active }: { subscriptionId: string; productName: string; active: boolean }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ name: string; key: string } | null>(null);

  function create(form: FormData) {
    start(async () => {
      const r = await createProductKeyAction(subscriptionId, String(form.get("name") ?? ""));
      if (!r.ok) return setError(r.error?.message ?? "Could not create the key.");
      setError(null);
      setSecret(r.data!);
      router.refresh();
    });
  }

  return (
    <Card title={`A key for ${productName}`}>
      {secret ? (
        <div role="status" className="mb-4 rounded-lg border-2 border-amber-400 bg-amber-50 p-4 dark:border-amber-600 dark:bg-amber-950">
          <p className="font-semibold">Your new key &quot;{secret.name}&quot;</p>
          <p className="mt-1 text-sm">
            Copy it now: <strong>it will not be shown again.</strong> It may call {productName} only.
          </p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <code data-testid="product-key" className="break-all rounded bg-white px-2 py-1 text-sm dark:bg-slate-900">
              {secret.key}
            </code>
            <CopyButton value={secret.key} />
          </div>
        </div>
      ) : null}
      {active ? (
        <form
          method="post"
          onSubmit={(e) => {
            // Not a form action: React resets a form after its action, and a refused card or URL would be typed again.
            e.preventDefault();
            create(new FormData(e.currentTarget));
          }}
          className="flex flex-wrap items-end gap-3"
          noValidate
        >
          <div className="min-w-64 flex-1">
            <Field label="Key name" htmlFor="product-key-name" error={error}>
              <Input id="product-key-name" name="name" defaultValue={`${productName} key`.slice(0, 100)} invalid={!!error} />
            </Field>
          </div>
          <Button type="submit" disabled={pending}>
            {pending ? "Working…" : "Create key for this product"}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-500">The subscription has ended; its product can no longer be called.</p>
      )}
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        The key has the scope <code>call:</code> of this product only: it cannot read or change anything else in your account.
      </p>
    </Card>
  );
}

export function CancelSubscription({ subscriptionId, cancelAtPeriodEnd }: { subscriptionId: string; cancelAtPeriodEnd: boolean }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [dialog, confirmCancel] = useConfirm();

  async function cancel(atPeriodEnd: boolean) {
    const ok = await confirmCancel(
      atPeriodEnd
        ? {
            title: "Cancel at the end of the period?",
            body: "The product can be called until the period ends; then its keys stop working for it.",
            confirmLabel: "Cancel at period end",
          }
        : {
            title: "Cancel the subscription now?",
            body: "The period so far is invoiced and charged at once, and the product can no longer be called.",
            confirmLabel: "Cancel now",
          },
    );
    if (!ok) return;
    start(async () => {
      const r = await cancelSubscriptionAction(subscriptionId, atPeriodEnd);
      if (!r.ok) return setError(r.error?.message ?? "Could not cancel.");
      setError(null);
      router.refresh();
    });
  }

  return (
    <div className="space-y-2">
      {dialog}
      <div className="flex flex-wrap gap-2">
        {!cancelAtPeriodEnd ? (
          <Button variant="secondary" onClick={() => cancel(true)} disabled={pending}>
            Cancel at period end
          </Button>
        ) : null}
        <Button variant="danger" onClick={() => cancel(false)} disabled={pending}>
          Cancel now
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
