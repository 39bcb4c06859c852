"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { createAppAction } from "@/app/portal/app-actions";
import { APP_TYPE_NAMES } from "@/lib/apps/app-type-names";
import { Button, Field, Input, Select } from "@/components/ui/primitives";

// "New app": a type, a name and (optionally) the product it presents; the editor opens on the new app.

export function NewAppForm({ products }: { products: { id: string; name: string }[] }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const errorOn = (f: string) => (error?.field === f ? error.message : null);

  function submit(form: FormData) {
    const product = String(form.get("product") ?? "");
    const input = {
      type: String(form.get("type") ?? ""),
      name: String(form.get("name") ?? "").trim(),
      ...(product ? { products: [product] } : {}),
    };
    start(async () => {
      const r = await createAppAction(input);
      if (!r.ok) return setError(r.error ?? { message: "Could not create the app." });
      setError(null);
      router.push(`/portal/apps/${r.data!.id}`);
    });
  }

  return (
    <form
      method="post"
      noValidate
      className="grid gap-4 md:grid-cols-3"
      onSubmit={(e) => {
        // Not a form action: React resets a form after its action, and a refused name would be typed again.
        e.preventDefault();
        submit(new FormData(e.currentTarget));
      }}
    >
      <Field label="Type" htmlFor="new-app-type" error={errorOn("type")}>
        <Select id="new-app-type" name="type" defaultValue="Developer">
          {APP_TYPE_NAMES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="App name" htmlFor="new-app-name" error={errorOn("name")}>
        <Input id="new-app-name" name="name" placeholder="e.g. Weather API developers" invalid={!!errorOn("name")} />
      </Field>
      <Field label="Product it presents" htmlFor="new-app-product" hint="Optional; pick more in the editor." error={errorOn("products")}>
        <Select id="new-app-product" name="product" defaultValue="">
          <option value="">None</option>
          {products.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </Select>
      </Field>
      {error && !["type", "name", "products"].includes(error.field ?? "") ? (
        <p role="alert" className="text-sm text-red-600 md:col-span-3 dark:text-red-400">
          {error.message}
        </p>
      ) : null}
      <div className="md:col-span-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "New app"}
        </Button>
      </div>
    </form>
  );
}
