"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { createProductAction } from "@/app/portal/marketplace-actions";
import { Button, Field, Input, Select } from "@/components/ui/primitives";

// Creating a product: name, type, description, and for an API where its calls go (upstream and sandbox URLs,
// timeout, OpenAPI URL) and the secret headers the gateway adds upstream (stored sealed, never shown again).

const TYPES = ["API", "SaaS", "Data", "Headless"] as const;

export function ProductCreateForm() {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [type, setType] = useState<string>("API");
  const [headers, setHeaders] = useState<{ key: number; name: string; value: string }[]>([]);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const errorOn = (f: string) => (error?.field === f ? error.message : null);
  const shownFields = ["name", "type", "description", "api.upstreamUrl", "api.sandboxUpstreamUrl", "api.timeoutMs", "api.openapiUrl"];

  function submit(form: FormData) {
    const value = (k: string) => String(form.get(k) ?? "");
    const input = {
      name: value("name"),
      type,
      description: value("description"),
      api: {
        upstreamUrl: value("upstreamUrl"),
        sandboxUpstreamUrl: value("sandboxUpstreamUrl"),
        timeoutMs: value("timeoutMs"),
        openapiUrl: value("openapiUrl"),
        secretHeaders: headers.map((h) => ({ name: h.name, value: h.value })),
      },
    };
    start(async () => {
      const r = await createProductAction(input);
      if (!r.ok) return setError(r.error ?? { message: "Could not create the product." });
      setError(null);
      router.push(`/portal/products/${r.data!.id}`);
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
      className="grid gap-4 md:grid-cols-2"
      noValidate
    >
      <Field label="Product name" htmlFor="product-name" error={errorOn("name")}>
        <Input id="product-name" name="name" placeholder="e.g. Weather API" invalid={!!errorOn("name")} />
      </Field>
      <Field label="Type" htmlFor="product-type" error={errorOn("type")}>
        <Select id="product-type" name="type" value={type} onChange={(e) => setType(e.target.value)}>
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
      </Field>
      <div className="md:col-span-2">
        <Field label="Description" htmlFor="product-description" error={errorOn("description")}>
          <textarea
            id="product-description"
            name="description"
            rows={2}
            className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
          />
        </Field>
      </div>
      {type === "API" ? (
        <fieldset className="grid gap-4 rounded-md border border-slate-200 p-3 md:col-span-2 md:grid-cols-2 dark:border-slate-800">
          <legend className="px-1 text-sm font-medium">Where the calls go</legend>
          <Field label="Upstream URL (live)" htmlFor="product-upstream" error={errorOn("api.upstreamUrl")}>
            <Input id="product-upstream" name="upstreamUrl" placeholder="https://api.example.com" invalid={!!errorOn("api.upstreamUrl")} />
          </Field>
          <Field
            label="Sandbox URL (test keys)"
            htmlFor="product-sandbox"
            hint="Defaults to the upstream URL."
            error={errorOn("api.sandboxUpstreamUrl")}
          >
            <Input id="product-sandbox" name="sandboxUpstreamUrl" invalid={!!errorOn("api.sandboxUpstreamUrl")} />
          </Field>
          <Field label="Timeout (ms)" htmlFor="product-timeout" hint="100 to 120,000; default 30,000." error={errorOn("api.timeoutMs")}>
            <Input id="product-timeout" name="timeoutMs" inputMode="numeric" invalid={!!errorOn("api.timeoutMs")} />
          </Field>
          <Field label="OpenAPI URL" htmlFor="product-openapi" error={errorOn("api.openapiUrl")}>
            <Input id="product-openapi" name="openapiUrl" invalid={!!errorOn("api.openapiUrl")} />
          </Field>
          <div className="space-y-2 md:col-span-2">
            <p className="text-sm font-medium">Secret headers</p>
            <p className="text-xs text-slate-500 dark:text-slate-400">
              Added to every call upstream (an upstream credential, say). Stored sealed; only their names are shown again.
            </p>
            {headers.map((h, i) => (
              <div key={h.key} className="flex flex-wrap items-end gap-2">
                <div className="min-w-40 flex-1">
                  <Field label={`Header ${i + 1} name`} htmlFor={`header-name-${h.key}`}>
                    <Input
                      id={`header-name-${h.key}`}
                      value={h.name}
                      placeholder="X-Upstream-Key"
                      onChange={(e) => setHeaders(headers.map((x) => (x.key === h.key ? { ...x, name: e.target.value } : x)))}
                    />
                  </Field>
                </div>
                <div className="min-w-40 flex-1">
                  <Field label={`Header ${i + 1} value`} htmlFor={`header-value-${h.key}`}>
                    <Input
                      id={`header-value-${h.key}`}
                      type="password"
                      autoComplete="off"
                      value={h.value}
                      onChange={(e) => setHeaders(headers.map((x) => (x.key === h.key ? { ...x, value: e.target.value } : x)))}
                    />
                  </Field>
                </div>
                <Button type="button" variant="ghost" onClick={() => setHeaders(headers.filter((x) => x.key !== h.key))}>
                  Remove
                </Button>
              </div>
            ))}
            <Button type="button" variant="secondary" onClick={() => setHeaders([...headers, { key: Date.now(), name: "", value: "" }])}>
              Add secret header
            </Button>
            {error?.field?.startsWith("api.secretHeaders") ? (
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                {error.message}
              </p>
            ) : null}
          </div>
        </fieldset>
      ) : null}
      {error && !shownFields.includes(error.field ?? "") && !error.field?.startsWith("api.secretHeaders") ? (
        <p role="alert" className="text-sm text-red-600 md:col-span-2 dark:text-red-400">
          {error.message}
        </p>
      ) : null}
      <div className="md:col-span-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Working…" : "Create product"}
        </Button>
      </div>
    </form>
  );
}
