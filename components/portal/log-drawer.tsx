"use client";
import { Fragment } from "react";
import { useQuery } from "@tanstack/react-query";
import { Badge, statusTone } from "@/components/ui/primitives";
import { CopyButton } from "@/components/ui/copy-button";
import { SideDrawer } from "./side-drawer";
import { curlCommand } from "./curl-command";
import { portalGet } from "./portal-get";
import { CallViaBadge, mcpToolOf } from "./call-via";

// One request in a drawer (?request=req_…): summary, the usage and cost it caused, "Copy as curl", then the
// request's and the response's headers and bodies as they were stored (credentials already redacted).

export interface LogDetail {
  id: string;
  timestamp: string;
  method: string;
  endpoint: string;
  path: string;
  statusCode: number;
  latency: number;
  ip: string | null;
  userAgent: string | null;
  apiKey: string;
  keyName: string | null;
  via?: string;
  tool?: string | null;
  announcedCost: string | null;
  request: { headers: Record<string, string>; body?: string | null };
  response: { headers: Record<string, string>; body?: string | null };
  usage: {
    cost: number | null;
    billable: boolean;
    requestSize: number;
    responseSize: number;
    computeTime: number | null;
    errorType: string | null;
  } | null;
}

export interface LogViewProps {
  showRequestHeaders: boolean;
  showResponseBody: boolean;
  showTiming: boolean;
}

function Headers({ title, headers }: { title: string; headers: Record<string, string> }) {
  return (
    <section>
      <h3 className="text-xs font-semibold uppercase text-slate-500 dark:text-slate-400">{title}</h3>
      <dl className="mt-1 grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-3 text-xs">
        {Object.entries(headers).map(([k, v]) => (
          <Fragment key={k}>
            <dt className="font-mono text-slate-500 dark:text-slate-400">{k}</dt>
            <dd className="break-all font-mono">{v}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}

function Body({ title, body }: { title: string; body?: string | null }) {
  let text = body ?? "";
  try {
    text = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    /* not JSON: shown as is */
  }
  return (
    <section>
      <h3 className="text-xs font-semibold uppercase text-slate-500 dark:text-slate-400">{title}</h3>
      {body ? (
        <pre className="mt-1 max-h-72 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100">{text}</pre>
      ) : (
        <p className="text-xs text-slate-500 dark:text-slate-400">No body</p>
      )}
    </section>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 break-all">{children}</dd>
    </>
  );
}

const bytes = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`);

/** The gateway's `Server-Timing: gateway;dur=…, upstream;dur=…` of a product call: where its time went. */
export function timingSplit(headers: Record<string, string>): { gateway: number; upstream: number } | null {
  const value = Object.entries(headers).find(([k]) => k.toLowerCase() === "server-timing")?.[1];
  const dur = (name: string) => value?.match(new RegExp(`(?:^|,)\\s*${name};dur=([0-9.]+)`))?.[1];
  const gateway = dur("gateway"),
    upstream = dur("upstream");
  return gateway && upstream ? { gateway: Number(gateway), upstream: Number(upstream) } : null;
}

export function LogDrawer({ id, props, onClose, portal }: { id: string; props: LogViewProps; onClose: () => void; portal?: string }) {
  // The detail is fetched in the browser only, so the command is never rendered on the server.
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const detailUrl = `/api/portal/logs/${encodeURIComponent(id)}${portal ? `?portal=${encodeURIComponent(portal)}` : ""}`;
  const detail = useQuery({ queryKey: ["log", detailUrl], queryFn: () => portalGet<LogDetail>(detailUrl) });
  const d = detail.data;
  const split = d && props.showTiming ? timingSplit(d.response.headers) : null;
  const curl = d ? curlCommand(origin, { method: d.method, path: d.path, headers: d.request.headers, body: d.request.body }) : "";
  return (
    <SideDrawer title={d ? `${d.method} ${d.path}` : "Request"} onClose={onClose} testId="log-drawer">
      {detail.isLoading ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : detail.error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {(detail.error as Error).message}
        </p>
      ) : d ? (
        <div className="space-y-5" data-testid="log-detail">
          <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm">
            <Row label="Status">
              <Badge tone={statusTone(d.statusCode)}>{d.statusCode}</Badge>
            </Row>
            <Row label="Request id">
              <span className="font-mono text-xs">{d.id}</span>
            </Row>
            {mcpToolOf(d) ? (
              <Row label="Via">
                <CallViaBadge call={d} />
              </Row>
            ) : null}
            <Row label="Time">
              <time dateTime={d.timestamp}>{new Date(d.timestamp).toLocaleString()}</time>
            </Row>
            {props.showTiming ? <Row label="Latency">{d.latency} ms</Row> : null}
            {split ? (
              <Row label="Time spent">
                <span data-testid="log-timing">
                  gateway {split.gateway.toFixed(1)} ms · upstream {split.upstream.toFixed(1)} ms
                </span>
              </Row>
            ) : null}
            <Row label="Key">
              {d.keyName ?? "Unknown key"} <span className="font-mono text-xs text-slate-500">{d.apiKey}</span>
            </Row>
            <Row label="Endpoint">
              <span className="font-mono text-xs">{d.endpoint}</span>
            </Row>
            <Row label="Client">{d.ip ?? "unknown address"}</Row>
          </dl>
          <section aria-labelledby="usage-caused">
            <h3 id="usage-caused" className="text-xs font-semibold uppercase text-slate-500 dark:text-slate-400">
              Usage and cost
            </h3>
            {d.usage ? (
              <dl className="mt-1 grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm" data-testid="log-usage">
                <Row label="Counted">1 request{d.usage.billable ? ", billable" : ", not billable (test mode or an error)"}</Row>
                <Row label="Cost">{d.announcedCost ?? (d.usage.cost === null ? "No price applies" : d.usage.cost.toFixed(6))}</Row>
                <Row label="Transfer">
                  {bytes(d.usage.requestSize)} in, {bytes(d.usage.responseSize)} out
                </Row>
                {d.usage.computeTime !== null ? <Row label="Compute">{d.usage.computeTime} ms</Row> : null}
                {d.usage.errorType ? <Row label="Error type">{d.usage.errorType}</Row> : null}
              </dl>
            ) : (
              <p className="mt-1 text-sm text-slate-500">No usage event was recorded for this request.</p>
            )}
          </section>
          <section aria-labelledby="curl-title">
            <div className="flex items-center justify-between gap-2">
              <h3 id="curl-title" className="text-xs font-semibold uppercase text-slate-500 dark:text-slate-400">
                Replay from a shell
              </h3>
              <CopyButton value={curl} label="Copy as curl" />
            </div>
            <pre
              data-testid="curl"
              className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-900 p-2 text-xs text-slate-100"
            >
              {curl}
            </pre>
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              The key was not logged: set API_KEY to one of your keys first.
            </p>
          </section>
          {props.showRequestHeaders ? <Headers title="Request headers" headers={d.request.headers} /> : null}
          <Body title="Request body" body={d.request.body} />
          {props.showRequestHeaders ? <Headers title="Response headers" headers={d.response.headers} /> : null}
          {props.showResponseBody ? <Body title="Response body" body={d.response.body} /> : null}
        </div>
      ) : null}
    </SideDrawer>
  );
}
