"use client";
import { useState, useTransition } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { replayFailedSinceAction, resendDeliveryAction } from "@/app/portal/webhook-actions";
import { Badge, Button, Field, Input } from "@/components/ui/primitives";
import { SideDrawer } from "./side-drawer";
import { portalGet } from "./portal-get";
import { deliveryTone, type Delivery } from "./webhook-messages";

// One webhook message (?endpoint=wh_…&message=whd_…) as Svix's app portal shows it: the payload we sent, every
// attempt with what the receiver answered, the next retry, "Resend" and "Replay all failed since".

interface Attempt {
  attempt: number;
  timestamp: string;
  status: number | null;
  durationMs: number;
  error: string | null;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
}
interface DeliveryDetail extends Delivery {
  eventId: string;
  url: string;
  request: { headers: Record<string, string>; body: string };
  response: { statusCode: number | null; headers: Record<string, string>; body: string | null; duration: number | null } | null;
  deliveries: Attempt[];
}

const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

function localInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function HeaderList({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers);
  if (!entries.length) return <p className="text-xs text-slate-500">No headers</p>;
  return (
    <dl className="grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-3 text-xs">
      {entries.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-mono text-slate-500 dark:text-slate-400">{k}</dt>
          <dd className="break-all font-mono">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function AttemptItem({ a, n, fallback }: { a: Attempt; n: number; fallback: DeliveryDetail["response"] }) {
  // Attempts logged before per-attempt answers were kept: the latest one's answer is the row's own.
  const headers = a.responseHeaders ?? (fallback && n === 0 ? fallback.headers : undefined);
  const body = a.responseBody ?? (fallback && n === 0 ? (fallback.body ?? undefined) : undefined);
  return (
    <li className="rounded border border-slate-200 p-3 dark:border-slate-800" data-testid="attempt">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">Attempt {a.attempt}</span>
        <Badge tone={a.status !== null && a.status < 300 ? "success" : "danger"}>{a.status ?? "no answer"}</Badge>
        <time dateTime={a.timestamp} className="text-xs text-slate-600 dark:text-slate-400">
          {new Date(a.timestamp).toLocaleString()}
        </time>
        <span className="text-xs tabular-nums text-slate-600 dark:text-slate-400">{a.durationMs} ms</span>
      </div>
      {a.error ? <p className="mt-1 text-xs text-red-700 dark:text-red-400">{a.error}</p> : null}
      {headers ? (
        <details className="mt-2">
          <summary className="cursor-pointer text-xs font-medium">Response headers</summary>
          <div className="mt-1">
            <HeaderList headers={headers} />
          </div>
        </details>
      ) : null}
      {body !== undefined ? (
        <div className="mt-2">
          <p className="text-xs font-medium">Response body</p>
          {body ? (
            <pre className="mt-1 max-h-40 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100">{pretty(body)}</pre>
          ) : (
            <p className="text-xs text-slate-500">Empty</p>
          )}
        </div>
      ) : null}
    </li>
  );
}

export function WebhookMessageDrawer({
  webhookId,
  deliveryId,
  canWrite,
  onClose,
}: {
  webhookId: string;
  deliveryId: string;
  canWrite: boolean;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const key = `/api/portal/webhooks/${webhookId}/deliveries/${deliveryId}`;
  const detail = useQuery({
    queryKey: [key],
    queryFn: () => portalGet<DeliveryDetail>(key),
    refetchInterval: (q) => (q.state.data && ["pending", "retrying"].includes(q.state.data.status) ? 1500 : false),
  });
  const d = detail.data;
  const [since, setSince] = useState<string | null>(null);
  const sinceValue = since ?? (d ? localInput(d.createdAt) : "");

  const run = (work: () => Promise<{ ok: boolean; error?: { message: string } }>, done: (r: unknown) => string) =>
    start(async () => {
      const r = await work();
      setNotice(r.ok ? { ok: true, text: done(r) } : { ok: false, text: r.error?.message ?? "That did not work." });
      await qc.invalidateQueries();
    });

  return (
    <SideDrawer title={d ? `${d.eventType} · ${d.id}` : "Message"} onClose={onClose} testId="message-drawer">
      {detail.isLoading ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : detail.error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {(detail.error as Error).message}
        </p>
      ) : d ? (
        <div className="space-y-5">
          <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-500 dark:text-slate-400">Status</dt>
            <dd data-testid="message-status">
              <Badge tone={deliveryTone(d.status)}>{d.status}</Badge>
            </dd>
            <dt className="text-slate-500 dark:text-slate-400">Created</dt>
            <dd>
              <time dateTime={d.createdAt}>{new Date(d.createdAt).toLocaleString()}</time>
            </dd>
            <dt className="text-slate-500 dark:text-slate-400">Attempts</dt>
            <dd className="tabular-nums">{d.attempts}</dd>
            <dt className="text-slate-500 dark:text-slate-400">Next retry</dt>
            <dd>
              {d.nextRetry ? (
                <time dateTime={d.nextRetry}>{new Date(d.nextRetry).toLocaleString()}</time>
              ) : d.status === "failed" ? (
                "None: every attempt failed"
              ) : (
                "None"
              )}
            </dd>
            {d.error ? (
              <>
                <dt className="text-slate-500 dark:text-slate-400">Last error</dt>
                <dd className="break-all text-red-700 dark:text-red-400">{d.error}</dd>
              </>
            ) : null}
            <dt className="text-slate-500 dark:text-slate-400">Event id</dt>
            <dd className="break-all font-mono text-xs">{d.eventId}</dd>
            <dt className="text-slate-500 dark:text-slate-400">Sent to</dt>
            <dd className="break-all font-mono text-xs">{d.url}</dd>
          </dl>
          {canWrite ? (
            <section aria-labelledby="msg-actions" className="space-y-3 rounded border border-slate-200 p-3 dark:border-slate-800">
              <h3 id="msg-actions" className="sr-only">
                Send again
              </h3>
              <Button
                disabled={pending || d.status === "pending"}
                onClick={() =>
                  run(
                    () => resendDeliveryAction(webhookId, d.id),
                    () => "Resend queued: it goes out within a second.",
                  )
                }
              >
                Resend
              </Button>
              <form
                className="flex flex-wrap items-end gap-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  const at = new Date(sinceValue);
                  run(
                    () => replayFailedSinceAction(webhookId, at.toISOString()),
                    (r) => {
                      const n = (r as { data?: { replayed: number } }).data?.replayed ?? 0;
                      return `${n} failed ${n === 1 ? "message" : "messages"} since ${at.toLocaleString()} queued again.`;
                    },
                  );
                }}
              >
                <Field label="Replay all failed since" htmlFor="replay-since">
                  <Input id="replay-since" type="datetime-local" value={sinceValue} onChange={(e) => setSince(e.target.value)} required />
                </Field>
                <Button type="submit" variant="secondary" disabled={pending}>
                  Replay failed
                </Button>
              </form>
              {notice ? (
                <p
                  role={notice.ok ? "status" : "alert"}
                  className={`text-sm ${notice.ok ? "text-emerald-700 dark:text-emerald-300" : "text-red-600 dark:text-red-400"}`}
                >
                  {notice.text}
                </p>
              ) : null}
            </section>
          ) : null}
          <section>
            <h3 className="text-xs font-semibold uppercase text-slate-500 dark:text-slate-400">Payload</h3>
            <pre data-testid="message-payload" className="mt-1 max-h-72 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100">
              {pretty(d.request.body)}
            </pre>
          </section>
          <section>
            <h3 className="text-xs font-semibold uppercase text-slate-500 dark:text-slate-400">Attempts, newest first</h3>
            {d.deliveries.length ? (
              <ol className="mt-2 space-y-2">
                {[...d.deliveries].reverse().map((a, i) => (
                  <AttemptItem key={`${a.timestamp}-${i}`} a={a} n={i} fallback={d.response} />
                ))}
              </ol>
            ) : (
              <p className="mt-1 text-sm text-slate-500">Not attempted yet.</p>
            )}
          </section>
          {Object.keys(d.request.headers).length ? (
            <details>
              <summary className="cursor-pointer text-sm font-medium">Request headers we sent (signatures shortened)</summary>
              <div className="mt-2">
                <HeaderList headers={d.request.headers} />
              </div>
            </details>
          ) : null}
        </div>
      ) : null}
    </SideDrawer>
  );
}
