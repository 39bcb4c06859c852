"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { createPriceAction } from "@/app/portal/marketplace-actions";
import { Button, Field, Input, Select } from "@/components/ui/primitives";
import type { FormError } from "@/lib/portal/form-errors";
import { MeteredMetricsFields, emptyMetric, type MetricRow } from "./metered-metrics-fields";

// Adding a plan to a product: per call, or a monthly subscription with included calls and an overage rate;
// postpaid (invoiced after each period) or prepaid (paid from credits the subscriber buys first, issue 39); and
// what the plan buys: a rate limit (calls per window) and a monthly quota. A metered plan (issue 40) prices one or
// more metrics, each reported by the provider or measured by the gateway from each call's answer.

const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD"];

export function PriceCreateForm({ productId }: { productId: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [kind, setKind] = useState<"usage" | "subscription" | "metered">("usage");
  const [metrics, setMetrics] = useState<MetricRow[]>([emptyMetric()]);
  const [error, setError] = useState<FormError | null>(null);
  const [formKey, setFormKey] = useState(0);
  const errorOn = (...fields: string[]) => (error?.field && fields.includes(error.field) ? error.message : null);
  const known = [
    "name",
    "currency",
    "amount",
    "baseAmount",
    "baseSubscription.amount",
    "includedQuota",
    "baseSubscription.includedQuota",
    "overageRate",
    "rateLimit.limit",
    "rateLimit.windowSeconds",
    "monthlyQuota",
    "billing",
    "metrics",
  ];

  function submit(form: FormData) {
    const value = (k: string) => String(form.get(k) ?? "");
    const input = {
      name: value("name"),
      kind,
      currency: value("currency"),
      amount: kind === "usage" ? value("amount") : "",
      baseAmount: kind === "subscription" ? value("baseAmount") : "",
      includedQuota: kind === "subscription" ? value("includedQuota") : "",
      overageRate: kind === "subscription" ? value("overageRate") : "",
      rateLimit: { limit: value("rateLimit"), windowSeconds: value("rateWindow") },
      monthlyQuota: value("monthlyQuota"),
      billing: value("billing"),
      ...(kind === "metered" ? { metrics } : {}),
    };
    start(async () => {
      const r = await createPriceAction(productId, input);
      if (!r.ok) return setError(r.error ?? { message: "Could not add the plan." });
      setError(null);
      setFormKey((k) => k + 1);
      setMetrics([emptyMetric()]);
      router.refresh();
    });
  }

  return (
    <form
      key={formKey}
      method="post"
      onSubmit={(e) => {
        // Not a form action: React resets a form after its action, and a refused card or URL would be typed again.
        e.preventDefault();
        submit(new FormData(e.currentTarget));
      }}
      className="grid gap-4 md:grid-cols-3"
      noValidate
    >
      <Field label="Plan name" htmlFor="price-name" error={errorOn("name")}>
        <Input id="price-name" name="name" placeholder="e.g. Basic" invalid={!!errorOn("name")} />
      </Field>
      <Field label="Charged" htmlFor="price-kind">
        <Select id="price-kind" name="kind" value={kind} onChange={(e) => setKind(e.target.value as "usage" | "subscription" | "metered")}>
          <option value="usage">Per call</option>
          <option value="subscription">Monthly subscription + overage</option>
          <option value="metered">Metered: by units (tokens, rows…)</option>
        </Select>
      </Field>
      <Field label="Currency" htmlFor="price-currency" error={errorOn("currency")}>
        <Select id="price-currency" name="currency" defaultValue="USD">
          {CURRENCIES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </Select>
      </Field>
      <Field label="Billing" htmlFor="price-billing" error={errorOn("billing")}>
        <Select id="price-billing" name="billing" defaultValue="postpaid">
          <option value="postpaid">Postpaid: invoiced after each period</option>
          <option value="prepaid">Prepaid: paid from credits bought first</option>
        </Select>
      </Field>
      {kind === "usage" ? (
        <Field label="Price per call" htmlFor="price-amount" error={errorOn("amount")}>
          <Input id="price-amount" name="amount" inputMode="decimal" placeholder="0.002" invalid={!!errorOn("amount")} />
        </Field>
      ) : kind === "metered" ? (
        <MeteredMetricsFields metrics={metrics} onChange={setMetrics} error={error} />
      ) : (
        <>
          <Field label="Monthly fee" htmlFor="price-base" error={errorOn("baseAmount", "baseSubscription.amount")}>
            <Input
              id="price-base"
              name="baseAmount"
              inputMode="decimal"
              placeholder="49"
              invalid={!!errorOn("baseAmount", "baseSubscription.amount")}
            />
          </Field>
          <Field
            label="Calls included per month"
            htmlFor="price-included"
            error={errorOn("includedQuota", "baseSubscription.includedQuota")}
          >
            <Input id="price-included" name="includedQuota" inputMode="numeric" placeholder="100000" />
          </Field>
          <Field label="Overage per call" htmlFor="price-overage" error={errorOn("overageRate")}>
            <Input id="price-overage" name="overageRate" inputMode="decimal" placeholder="0.001" />
          </Field>
        </>
      )}
      <fieldset className="grid gap-4 rounded-md border border-slate-200 p-3 md:col-span-3 md:grid-cols-3 dark:border-slate-800">
        <legend className="px-1 text-sm font-medium">What the plan buys</legend>
        <Field label="Rate limit (calls)" htmlFor="price-rate" hint="Empty: no rate limit." error={errorOn("rateLimit.limit")}>
          <Input id="price-rate" name="rateLimit" inputMode="numeric" placeholder="100" invalid={!!errorOn("rateLimit.limit")} />
        </Field>
        <Field label="per (seconds)" htmlFor="price-window" hint="Default 60." error={errorOn("rateLimit.windowSeconds")}>
          <Input id="price-window" name="rateWindow" inputMode="numeric" placeholder="60" invalid={!!errorOn("rateLimit.windowSeconds")} />
        </Field>
        <Field label="Monthly quota (calls)" htmlFor="price-quota" hint="Empty: unlimited." error={errorOn("monthlyQuota")}>
          <Input id="price-quota" name="monthlyQuota" inputMode="numeric" placeholder="10000" invalid={!!errorOn("monthlyQuota")} />
        </Field>
      </fieldset>
      {error && !known.includes(error.field ?? "") ? (
        <p role="alert" className="text-sm text-red-600 md:col-span-3 dark:text-red-400">
          {error.message}
        </p>
      ) : null}
      <div className="md:col-span-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Working…" : "Add plan"}
        </Button>
      </div>
    </form>
  );
}
