"use client";
import { useCallback, useState, useTransition } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { useConfirm } from "@/components/ui/confirm-dialog";
import {
  createWebhookAction,
  deleteWebhookAction,
  rotateWebhookSecretAction,
  sendTestAction,
  setWebhookActiveAction,
} from "@/app/portal/actions";
import { Badge, Button, Card, EmptyState, Field, Input } from "@/components/ui/primitives";
import { CopyButton } from "@/components/ui/copy-button";
import { WebhookMessages } from "./webhook-messages";
import { WebhookMessageDrawer } from "./webhook-message-drawer";
import { WebhookHealth } from "./webhook-health";
import { WebhookSecret } from "./webhook-secret";

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  secret: string;
  isActive: boolean;
  disabledReason: string | null;
  createdAt: string;
  /** After a rotation: until when the previous secret still signs. */
  previousSecretExpiresAt: string | null;
}
export function WebhooksManager({
  hooks,
  eventTypes,
  props,
  canWrite,
  allEvents = true,
}: {
  hooks: WebhookView[];
  eventTypes: string[];
  canWrite: boolean;
  props: { enableTesting: boolean; showDeliveryLogs: boolean };
  /** Offer `*` (every event, checked by default); a product portal offers its subscription's events only, all checked. */
  allEvents?: boolean;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const qc = useQueryClient();
  // The open message is in the URL (?endpoint=wh_…&message=whd_…), so it can be linked to.
  const openEndpoint = search.get("endpoint");
  const openMessage = search.get("message");
  const openHref = useCallback(
    (endpoint: string | null, message: string | null) => {
      const next = new URLSearchParams(search.toString());
      if (endpoint && message) {
        next.set("endpoint", endpoint);
        next.set("message", message);
      } else {
        next.delete("endpoint");
        next.delete("message");
      }
      return next.toString() ? `${pathname}?${next}` : pathname;
    },
    [pathname, search],
  );
  const closeMessage = useCallback(() => router.replace(openHref(null, null), { scroll: false }), [router, openHref]);
  const [pending, start] = useTransition();
  const [dialog, confirmDelete] = useConfirm();
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  function create(form: FormData) {
    const events = form.getAll("events").map(String);
    start(async () => {
      const r = await createWebhookAction({ url: String(form.get("url") ?? ""), events: events.length ? events : [] });
      if (!r.ok) return setError(r.error ?? { message: "Could not add the endpoint." });
      setError(null);
      setSecret(r.data!.secret);
      router.refresh();
    });
  }

  const run = (f: () => Promise<{ ok: boolean; error?: { message: string } }>, done?: string) =>
    start(async () => {
      const r = await f();
      if (!r.ok) setError(r.error ?? { message: "That did not work." });
      else if (done) setNotice(done);
      await qc.invalidateQueries();
      router.refresh();
    });

  return (
    <div className="space-y-6">
      {dialog}
      {secret ? (
        <div
          role="dialog"
          aria-labelledby="wh-secret"
          className="rounded-lg border-2 border-amber-400 bg-amber-50 p-4 dark:border-amber-600 dark:bg-amber-950"
        >
          <h2 id="wh-secret" className="font-semibold">
            Signing secret
          </h2>
          <p className="mt-1 text-sm">
            Use it to verify our signatures. <strong>It will not be shown again.</strong>
          </p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code data-testid="webhook-secret" className="break-all text-sm">
              {secret}
            </code>
            <CopyButton value={secret} />
            <Button variant="ghost" onClick={() => setSecret(null)}>
              Done
            </Button>
          </div>
        </div>
      ) : null}
      {notice ? (
        <p role="status" className="rounded bg-emerald-50 p-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
          {notice}
        </p>
      ) : null}
      {canWrite ? (
        <Card title="Add an endpoint">
          <form action={create} className="space-y-4" noValidate>
            <Field label="Endpoint URL" htmlFor="wh-url" error={error?.field === "url" ? error.message : null}>
              <Input id="wh-url" name="url" type="url" placeholder="https://example.com/webhooks" invalid={error?.field === "url"} />
            </Field>
            <fieldset>
              <legend className="text-sm font-medium">Events</legend>
              <div className="mt-2 grid grid-cols-1 gap-1 text-sm sm:grid-cols-2 lg:grid-cols-3">
                {allEvents ? (
                  <label className="flex items-center gap-2">
                    <input type="checkbox" name="events" value="*" defaultChecked /> <code>*</code> (everything)
                  </label>
                ) : null}
                {eventTypes.map((t) => (
                  <label key={t} className="flex items-center gap-2">
                    <input type="checkbox" name="events" value={t} defaultChecked={!allEvents} /> <code>{t}</code>
                  </label>
                ))}
              </div>
              {error?.field === "events" ? (
                <p role="alert" className="text-sm text-red-600">
                  {error.message}
                </p>
              ) : null}
            </fieldset>
            {error && !["url", "events"].includes(error.field ?? "") ? (
              <p role="alert" className="text-sm text-red-600">
                {error.message}
              </p>
            ) : null}
            <Button type="submit" disabled={pending}>
              {pending ? "Adding…" : "Add endpoint"}
            </Button>
          </form>
        </Card>
      ) : null}
      {hooks.length === 0 ? (
        <EmptyState title="No endpoints yet">Add one to receive events as they happen.</EmptyState>
      ) : (
        hooks.map((h) => (
          <Card
            key={h.id}
            title={<span className="break-all font-mono text-sm">{h.url}</span>}
            actions={<Badge tone={h.isActive ? "success" : "danger"}>{h.isActive ? "active" : "disabled"}</Badge>}
          >
            <p className="text-sm text-slate-600 dark:text-slate-400">Events: {h.events.join(", ")}</p>
            <WebhookSecret webhookId={h.id} masked={h.secret} graceUntil={h.previousSecretExpiresAt} canWrite={canWrite} />
            {h.disabledReason ? <p className="mt-1 text-sm text-red-600">{h.disabledReason}</p> : null}
            {canWrite ? (
              <div className="mt-3 flex flex-wrap gap-2">
                {props.enableTesting ? (
                  <Button variant="secondary" disabled={pending} onClick={() => run(() => sendTestAction(h.id), "Test event sent.")}>
                    Send test event
                  </Button>
                ) : null}
                <Button variant="secondary" disabled={pending} onClick={() => run(() => setWebhookActiveAction(h.id, !h.isActive))}>
                  {h.isActive ? "Disable" : "Enable"}
                </Button>
                <Button
                  variant="secondary"
                  disabled={pending}
                  onClick={() =>
                    start(async () => {
                      const r = await rotateWebhookSecretAction(h.id);
                      if (r.ok) setSecret(r.data!.secret);
                      else setError(r.error ?? null);
                      router.refresh();
                    })
                  }
                >
                  Rotate secret
                </Button>
                <Button
                  variant="danger"
                  disabled={pending}
                  onClick={async () => {
                    const ok = await confirmDelete({
                      title: `Delete the endpoint ${h.url}?`,
                      body: "It stops receiving events at once, and its delivery history goes with it. This cannot be undone.",
                      confirmLabel: "Delete endpoint",
                    });
                    if (ok) run(() => deleteWebhookAction(h.id));
                  }}
                >
                  Delete
                </Button>
              </div>
            ) : null}
            {props.showDeliveryLogs ? (
              <>
                <WebhookHealth webhookId={h.id} />
                <WebhookMessages
                  webhookId={h.id}
                  eventTypes={eventTypes}
                  selected={openEndpoint === h.id ? openMessage : null}
                  onOpen={(id) => router.push(openHref(h.id, id), { scroll: false })}
                />
              </>
            ) : null}
          </Card>
        ))
      )}
      {openEndpoint && openMessage ? (
        <WebhookMessageDrawer webhookId={openEndpoint} deliveryId={openMessage} canWrite={canWrite} onClose={closeMessage} />
      ) : null}
    </div>
  );
}
