"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  createWebhookAction,
  deleteWebhookAction,
  retryDeliveryAction,
  rotateWebhookSecretAction,
  sendTestAction,
  setWebhookActiveAction,
} from "@/app/portal/actions";
import { Badge, Button, Card, EmptyState, Field, Input, Select } from "@/components/ui/primitives";
import { CopyButton } from "@/components/ui/copy-button";

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  secret: string;
  isActive: boolean;
  disabledReason: string | null;
  createdAt: string;
}
interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  nextRetry: string | null;
  lastAttempt: string | null;
  createdAt: string;
  response: { statusCode: number | null } | null;
  error: string | null;
}

const statusTone = (s: string) => (s === "success" ? "success" : s === "failed" ? "danger" : s === "retrying" ? "warning" : "neutral");

function Deliveries({ webhookId, eventTypes, canWrite }: { webhookId: string; eventTypes: string[]; canWrite: boolean }) {
  const [status, setStatus] = useState("");
  const [event, setEvent] = useState("");
  const qc = useQueryClient();
  const params = new URLSearchParams({ limit: "20", ...(status ? { status } : {}), ...(event ? { event } : {}) });
  const key = `/api/portal/webhooks/${webhookId}/deliveries?${params}`;
  const { data, isLoading, error } = useQuery<{ data: Delivery[] }>({
    queryKey: [key],
    refetchInterval: 3000,
    queryFn: async () => {
      const r = await fetch(key);
      const b = await r.json();
      if (!r.ok) throw new Error(b.error?.message);
      return b.data;
    },
  });
  return (
    <div className="mt-4">
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Status" htmlFor={`st-${webhookId}`}>
          <Select id={`st-${webhookId}`} value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            {["pending", "success", "retrying", "failed"].map((s) => (
              <option key={s}>{s}</option>
            ))}
          </Select>
        </Field>
        <Field label="Event" htmlFor={`ev-${webhookId}`}>
          <Select id={`ev-${webhookId}`} value={event} onChange={(e) => setEvent(e.target.value)}>
            <option value="">Any</option>
            {["webhook.test", ...eventTypes].map((s) => (
              <option key={s}>{s}</option>
            ))}
          </Select>
        </Field>
      </div>
      {isLoading ? (
        <p className="mt-3 text-sm text-slate-500">Loading deliveries…</p>
      ) : error ? (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {String((error as Error).message)}
        </p>
      ) : !data?.data.length ? (
        <p className="mt-3 text-sm text-slate-500">No deliveries match.</p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Deliveries</caption>
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3">
                  Event
                </th>
                <th scope="col" className="pr-3">
                  Status
                </th>
                <th scope="col" className="pr-3">
                  Attempts
                </th>
                <th scope="col" className="pr-3">
                  Response
                </th>
                <th scope="col" className="pr-3">
                  Next retry
                </th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((d) => (
                <tr key={d.id} className="border-t border-slate-100 dark:border-slate-800" data-testid="delivery-row">
                  <td className="py-1 pr-3 font-mono text-xs">{d.eventType}</td>
                  <td className="pr-3">
                    <Badge tone={statusTone(d.status)}>{d.status}</Badge>
                  </td>
                  <td className="pr-3 tabular-nums">{d.attempts}</td>
                  <td className="pr-3 text-xs">{d.response?.statusCode ?? d.error ?? "—"}</td>
                  <td className="pr-3 text-xs">{d.nextRetry ? new Date(d.nextRetry).toLocaleTimeString() : "—"}</td>
                  <td>
                    {canWrite && (d.status === "failed" || d.status === "retrying") ? (
                      <Button
                        variant="secondary"
                        onClick={async () => {
                          await retryDeliveryAction(webhookId, d.id);
                          await qc.invalidateQueries();
                        }}
                      >
                        Retry
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export function WebhooksManager({
  hooks,
  eventTypes,
  props,
  canWrite,
}: {
  hooks: WebhookView[];
  eventTypes: string[];
  canWrite: boolean;
  props: { enableTesting: boolean; showDeliveryLogs: boolean };
}) {
  const router = useRouter();
  const qc = useQueryClient();
  const [pending, start] = useTransition();
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
                <label className="flex items-center gap-2">
                  <input type="checkbox" name="events" value="*" defaultChecked /> <code>*</code> (everything)
                </label>
                {eventTypes.map((t) => (
                  <label key={t} className="flex items-center gap-2">
                    <input type="checkbox" name="events" value={t} /> <code>{t}</code>
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
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Events: {h.events.join(", ")} · secret {h.secret}
            </p>
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
                  onClick={() => {
                    if (confirm("Delete this endpoint?")) run(() => deleteWebhookAction(h.id));
                  }}
                >
                  Delete
                </Button>
              </div>
            ) : null}
            {props.showDeliveryLogs ? <Deliveries webhookId={h.id} eventTypes={eventTypes} canWrite={canWrite} /> : null}
          </Card>
        ))
      )}
    </div>
  );
}
