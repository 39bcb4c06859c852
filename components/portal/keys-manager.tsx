"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { createKeyAction, revealKeyAction, revokeKeyAction, rotateKeyAction } from "@/app/portal/actions";
import { createProductKeyAction } from "@/app/portal/marketplace-actions";
import { Badge, Button, Card, EmptyState, Field, Input } from "@/components/ui/primitives";
import { CopyButton } from "@/components/ui/copy-button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { formErrors, splitFormErrors, type FieldErrors } from "@/lib/portal/form-errors";
import { ScopePicker, allLevels, scopesFor, type Levels } from "./scope-picker";

export interface KeyView {
  id: string;
  name: string;
  key: string;
  status: "active" | "expired" | "revoked";
  scopes: string[];
  createdAt: string;
  lastUsed: string | null;
  expiresAt: string | null;
  rotatedFromId: string | null;
  secretPending?: boolean;
}

interface Props {
  keys: KeyView[];
  usage: Record<string, number>;
  environment: "test" | "production";
  resources: string[];
  canWrite: boolean;
  /** Which products each key may call, in words (by key id): "all products", product names or "none". */
  callable?: Record<string, string>;
  props: { showScopes: boolean; enableRotation: boolean; showUsageStats: boolean; defaultExpiration: number };
  /**
   * A product's developer portal: new keys may call this product only (`call:<productId>`, made from the
   * subscription), so there is no scope picker; the usage column counts calls of the product.
   */
  product?: { name: string; subscriptionId: string };
}

const date = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString() : "—");
const tone = (s: KeyView["status"]) => (s === "active" ? "success" : s === "expired" ? "warning" : "danger");

/** The one moment a secret is visible: a copy button and a plain warning. */
function SecretOnce({ title, secret, note, onDone }: { title: string; secret: string; note?: string; onDone: () => void }) {
  return (
    <div
      role="dialog"
      aria-modal="false"
      aria-labelledby="secret-title"
      className="rounded-lg border-2 border-amber-400 bg-amber-50 p-4 dark:border-amber-600 dark:bg-amber-950"
    >
      <h2 id="secret-title" className="font-semibold">
        {title}
      </h2>
      <p className="mt-1 text-sm">
        Copy it now: <strong>it will not be shown again.</strong> We store only a hash of it.
      </p>
      {note ? <p className="mt-1 text-sm">{note}</p> : null}
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code data-testid="new-secret" className="break-all rounded bg-white px-2 py-1 text-sm dark:bg-slate-900">
          {secret}
        </code>
        <CopyButton value={secret} />
        <Button variant="ghost" onClick={onDone}>
          I have stored it
        </Button>
      </div>
    </div>
  );
}

export function KeysManager({ keys, usage, props, environment, resources, canWrite, callable, product }: Props) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [secret, setSecret] = useState<{ title: string; value: string; note?: string } | null>(null);
  const [levels, setLevels] = useState<Levels>(() => allLevels(resources, "full"));
  const [dialog, confirm] = useConfirm();
  const shown = splitFormErrors(errors, ["name", "expiresInDays", "scopes"]);
  const fail = (e: unknown) => setErrors(formErrors(e ?? { message: "Something went wrong. Try again." }));

  function create(form: HTMLFormElement) {
    const data = new FormData(form);
    const scopes = scopesFor(levels);
    if (!product && !scopes.length) return setErrors({ scopes: "Choose at least one permission, or a preset." });
    // Empty means no expiry. Anything else goes to the server as typed, so 0, a negative, fractional or
    // non-numeric count comes back as the field's error instead of silently making a key that never expires.
    const days = String(data.get("expiresInDays") ?? "").trim();
    const expiry = days === "" ? {} : { expiresInDays: Number(days) };
    const name = String(data.get("name") ?? "");
    start(async () => {
      const r = product
        ? await createProductKeyAction(product.subscriptionId, name, days)
        : await createKeyAction({ name, scopes, ...expiry });
      if (!r.ok) return fail(r.error);
      setErrors({});
      form.reset();
      setLevels(allLevels(resources, "full"));
      setSecret({ title: `Your new key "${r.data!.name}"`, value: r.data!.key });
      router.refresh();
    });
  }

  async function rotate(k: KeyView) {
    const ok = await confirm({
      title: `Rotate "${k.name}"?`,
      body: "A new key is made now. The old key keeps working for 7 days, then stops: replace it everywhere it is used before then.",
      confirmLabel: "Rotate key",
      tone: "primary",
    });
    if (!ok) return;
    start(async () => {
      const r = await rotateKeyAction(k.id);
      if (!r.ok) return fail(r.error);
      setSecret({
        title: `Rotated "${k.name}"`,
        value: r.data!.key,
        note: `The old key keeps working until ${new Date(r.data!.rotatedFrom.expiresAt).toLocaleString()}.`,
      });
      router.refresh();
    });
  }

  /** A key made by automatic rotation: its value is shown once, here or through the API. */
  function reveal(k: KeyView) {
    start(async () => {
      const r = await revealKeyAction(k.id);
      if (!r.ok) return fail(r.error);
      setSecret({
        title: `"${k.name}", made by automatic rotation`,
        value: r.data!.key,
        note: "Replace the old key with this one before the old key expires.",
      });
      router.refresh();
    });
  }

  async function revoke(k: KeyView) {
    const ok = await confirm({
      title: `Revoke "${k.name}"?`,
      body: (
        <>
          <code>{k.key}</code> stops working on its next request, and cannot be turned back on. Anything still using it gets 401 errors.
        </>
      ),
      confirmLabel: "Revoke key",
    });
    if (!ok) return;
    start(async () => {
      const r = await revokeKeyAction(k.id);
      if (!r.ok) fail(r.error);
      router.refresh();
    });
  }

  return (
    <div className="space-y-6">
      {dialog}
      {secret ? <SecretOnce title={secret.title} secret={secret.value} note={secret.note} onDone={() => setSecret(null)} /> : null}
      {canWrite ? (
        <Card title={`Create a ${environment === "test" ? "test" : "live"} key${product ? ` for ${product.name}` : ""}`}>
          {product ? (
            <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
              The key may call {product.name} only: it cannot read or change anything else of your account.
            </p>
          ) : null}
          <form
            onSubmit={(e) => {
              // Not a form action: React would clear the fields after it, losing what was typed when the server refuses it.
              e.preventDefault();
              create(e.currentTarget);
            }}
            className="grid gap-4 md:grid-cols-2"
            noValidate
          >
            <Field label="Name" htmlFor="key-name" error={shown.fields.name}>
              <Input id="key-name" name="name" placeholder="e.g. Production backend" invalid={!!shown.fields.name} />
            </Field>
            <Field
              label="Expires after (days)"
              htmlFor="key-expiry"
              hint="Leave empty for a key that never expires."
              error={shown.fields.expiresInDays}
            >
              <Input
                id="key-expiry"
                name="expiresInDays"
                type="number"
                inputMode="numeric"
                step={1}
                min={1}
                max={3650}
                defaultValue={props.defaultExpiration}
                invalid={!!shown.fields.expiresInDays}
              />
            </Field>
            {product ? null : (
              <div className="min-w-0 md:col-span-2">
                <ScopePicker resources={resources} levels={levels} onChange={setLevels} error={shown.fields.scopes} />
              </div>
            )}
            {shown.form ? (
              <p role="alert" className="text-sm text-red-600 md:col-span-2 dark:text-red-400">
                {shown.form}
              </p>
            ) : null}
            <div className="md:col-span-2">
              <Button type="submit" disabled={pending}>
                {pending ? "Working…" : "Create key"}
              </Button>
            </div>
          </form>
        </Card>
      ) : null}
      <Card title="Keys">
        {keys.length === 0 ? (
          <EmptyState title="No keys yet">Create one above to call the API.</EmptyState>
        ) : (
          <div className="relative overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">API keys</caption>
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    Name
                  </th>
                  <th scope="col" className="pr-3">
                    Key
                  </th>
                  {props.showScopes ? (
                    <th scope="col" className="pr-3">
                      Scopes
                    </th>
                  ) : null}
                  {callable ? (
                    <th scope="col" className="pr-3">
                      May call
                    </th>
                  ) : null}
                  <th scope="col" className="pr-3">
                    Status
                  </th>
                  {props.showUsageStats ? (
                    <th scope="col" className="pr-3">
                      {product ? `Calls of ${product.name} (30 d)` : "Requests (30 d)"}
                    </th>
                  ) : null}
                  <th scope="col" className="pr-3">
                    Last used
                  </th>
                  <th scope="col" className="pr-3">
                    Expires
                  </th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <tr key={k.id} className="border-t border-slate-100 align-middle dark:border-slate-800" data-testid={`key-row-${k.name}`}>
                    <td className="py-2 pr-3 font-medium">{k.name}</td>
                    <td className="pr-3 font-mono text-xs">{k.key}</td>
                    {props.showScopes ? <td className="pr-3 text-xs">{k.scopes.join(", ")}</td> : null}
                    {callable ? (
                      <td className="pr-3 text-xs" data-testid={`key-products-${k.name}`}>
                        {callable[k.id] ?? "none"}
                      </td>
                    ) : null}
                    <td className="pr-3">
                      <Badge tone={tone(k.status)}>{k.status}</Badge>
                    </td>
                    {props.showUsageStats ? <td className="pr-3 tabular-nums">{(usage[k.id] ?? 0).toLocaleString()}</td> : null}
                    <td className="pr-3 text-xs">{date(k.lastUsed)}</td>
                    <td className="pr-3 text-xs">{date(k.expiresAt)}</td>
                    <td className="space-x-1 whitespace-nowrap py-1">
                      {canWrite && k.secretPending && k.status === "active" ? (
                        <Button onClick={() => reveal(k)} disabled={pending} aria-label={`Reveal ${k.name}`}>
                          Reveal
                        </Button>
                      ) : null}
                      {canWrite && k.status === "active" && props.enableRotation ? (
                        <Button variant="secondary" onClick={() => rotate(k)} disabled={pending} aria-label={`Rotate ${k.name}`}>
                          Rotate
                        </Button>
                      ) : null}
                      {canWrite && k.status !== "revoked" ? (
                        <Button variant="danger" onClick={() => revoke(k)} disabled={pending} aria-label={`Revoke ${k.name}`}>
                          Revoke
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
