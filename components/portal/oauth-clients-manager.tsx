"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { createOAuthClientAction, deleteOAuthClientAction } from "@/app/portal/oauth-actions";
import { Badge, Button, Card, EmptyState, Field, Input, Select } from "@/components/ui/primitives";
import { CopyButton } from "@/components/ui/copy-button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { formErrors, splitFormErrors, type FieldErrors } from "@/lib/portal/form-errors";

// Registering third-party applications (OAuth clients): the client secret is shown once, right after creation.

export interface ClientView {
  id: string;
  name: string;
  clientType: "confidential" | "public";
  clientSecret: string | null;
  redirectUris: string[];
  scopes: string[];
  createdAt: string;
}

export function OAuthClientsManager({
  clients,
  resources,
  canWrite,
  environment,
}: {
  clients: ClientView[];
  resources: string[];
  canWrite: boolean;
  environment: "test" | "production";
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<ClientView | null>(null);
  const [dialog, confirm] = useConfirm();
  const shown = splitFormErrors(errors, ["name", "redirectUris", "scopes"]);

  function create(formElement: HTMLFormElement) {
    const form = new FormData(formElement);
    const input = {
      name: String(form.get("name") ?? ""),
      redirectUris: String(form.get("redirectUris") ?? "")
        .split(/\s+/)
        .filter(Boolean),
      scopes: form.getAll("scope").map(String),
      clientType: String(form.get("clientType") ?? "confidential"),
    };
    start(async () => {
      const r = await createOAuthClientAction(input);
      if (!r.ok) return setErrors(formErrors(r.error ?? { message: "Could not register the application." }));
      setErrors({});
      formElement.reset();
      setCreated(r.data as ClientView);
      router.refresh();
    });
  }

  async function remove(c: ClientView) {
    const ok = await confirm({
      title: `Delete "${c.name}"?`,
      body: "Its client ID and secret stop working, and every business that authorized it loses the connection at once. This cannot be undone.",
      confirmLabel: "Delete application",
    });
    if (!ok) return;
    start(async () => {
      const r = await deleteOAuthClientAction(c.id);
      if (!r.ok) setErrors(formErrors(r.error ?? { message: "Could not delete the application." }));
      router.refresh();
    });
  }

  const fieldError = (f: string) => shown.fields[f] ?? null;
  return (
    <div className="space-y-6">
      {dialog}
      {created ? (
        <div
          role="dialog"
          aria-modal="false"
          aria-labelledby="client-created"
          className="rounded-lg border-2 border-amber-400 bg-amber-50 p-4 dark:border-amber-600 dark:bg-amber-950"
        >
          <h2 id="client-created" className="font-semibold">
            Registered &quot;{created.name}&quot;
          </h2>
          <p className="mt-1 text-sm">
            client_id: <code data-testid="new-client-id">{created.id}</code> <CopyButton value={created.id} />
          </p>
          {created.clientSecret ? (
            <>
              <p className="mt-2 text-sm">
                client_secret (copy it now: <strong>it will not be shown again</strong>; we store only a hash):
              </p>
              <div className="mt-1 flex flex-wrap items-center gap-2">
                <code data-testid="new-client-secret" className="break-all rounded bg-white px-2 py-1 text-sm dark:bg-slate-900">
                  {created.clientSecret}
                </code>
                <CopyButton value={created.clientSecret} />
              </div>
            </>
          ) : (
            <p className="mt-2 text-sm">A public client has no secret: it must use PKCE.</p>
          )}
          <Button variant="ghost" className="mt-2" onClick={() => setCreated(null)}>
            Done
          </Button>
        </div>
      ) : null}
      {canWrite ? (
        <Card title={`Register an application (${environment === "test" ? "test" : "live"} data)`}>
          <form
            onSubmit={(e) => {
              // Not a form action: React would clear the fields after it, losing what was typed when the server refuses it.
              e.preventDefault();
              create(e.currentTarget);
            }}
            className="grid gap-4 md:grid-cols-2"
            noValidate
          >
            <Field label="Application name" htmlFor="client-name" error={fieldError("name")}>
              <Input id="client-name" name="name" placeholder="e.g. Acme Analytics" invalid={!!fieldError("name")} />
            </Field>
            <Field
              label="Client type"
              htmlFor="client-type"
              hint="Public: a browser or mobile app that cannot keep a secret (PKCE required)."
            >
              <Select id="client-type" name="clientType" defaultValue="confidential">
                <option value="confidential">Confidential (server)</option>
                <option value="public">Public (browser or native)</option>
              </Select>
            </Field>
            <Field
              label="Redirect URIs"
              htmlFor="client-redirects"
              hint="One per line; matched exactly. https, or http on 127.0.0.1/localhost."
              error={fieldError("redirectUris")}
            >
              <textarea
                id="client-redirects"
                name="redirectUris"
                rows={3}
                aria-invalid={!!fieldError("redirectUris") || undefined}
                aria-describedby={fieldError("redirectUris") ? "client-redirects-error" : undefined}
                className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
                placeholder="https://app.example.com/oauth/callback"
              />
            </Field>
            <fieldset className="md:col-span-2">
              <legend className="text-sm font-medium">Scopes the application may ask for</legend>
              <div className="mt-2 grid grid-cols-1 gap-1 text-sm sm:grid-cols-2 lg:grid-cols-3">
                {resources.flatMap((r) =>
                  ["read", "write", "delete"].map((a) => (
                    <label key={`${r}:${a}`} className="flex items-center gap-2">
                      <input type="checkbox" name="scope" value={`${r}:${a}`} />{" "}
                      <code>
                        {r}:{a}
                      </code>
                    </label>
                  )),
                )}
              </div>
              {fieldError("scopes") ? (
                <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                  {fieldError("scopes")}
                </p>
              ) : null}
            </fieldset>
            {shown.form ? (
              <p role="alert" className="text-sm text-red-600 md:col-span-2 dark:text-red-400">
                {shown.form}
              </p>
            ) : null}
            <div className="md:col-span-2">
              <Button type="submit" disabled={pending}>
                {pending ? "Working…" : "Register application"}
              </Button>
            </div>
          </form>
        </Card>
      ) : null}
      <Card title="Applications">
        {clients.length === 0 ? (
          <EmptyState title="No applications yet">Register one to let it ask users for access through OAuth.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {clients.map((c) => (
              <li key={c.id} className="flex flex-wrap items-start justify-between gap-3 py-3" data-testid={`client-row-${c.name}`}>
                <div className="min-w-0 text-sm">
                  <p className="font-medium">
                    {c.name} <Badge>{c.clientType}</Badge>
                  </p>
                  <p className="font-mono text-xs">
                    {c.id}
                    {c.clientSecret ? ` · ${c.clientSecret}` : ""}
                  </p>
                  <p className="text-xs text-slate-500">Redirects: {c.redirectUris.join(", ")}</p>
                  <p className="text-xs text-slate-500">Scopes: {c.scopes.join(", ")}</p>
                </div>
                {canWrite ? (
                  <Button variant="danger" onClick={() => remove(c)} disabled={pending} aria-label={`Delete ${c.name}`}>
                    Delete
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
