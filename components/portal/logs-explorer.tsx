"use client";
import { Fragment, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Badge, Button, Card, EmptyState, Field, Input, Select, statusTone } from "@/components/ui/primitives";

interface LogRow {
  id: string;
  timestamp: string;
  method: string;
  path: string;
  endpoint: string;
  statusCode: number;
  latency: number;
  ip: string | null;
}
interface LogDetail extends LogRow {
  userAgent: string | null;
  request: { headers: Record<string, string>; body?: string | null };
  response: { headers: Record<string, string>; body?: string | null };
}
type Page = { data: LogRow[]; pagination: { total: number; hasMore: boolean; nextCursor: string | null } };

async function get<T>(url: string): Promise<T> {
  const r = await fetch(url);
  const b = await r.json();
  if (!r.ok) throw new Error(b.error?.message ?? `HTTP ${r.status}`);
  return b.data as T;
}

function Headers({ title, headers }: { title: string; headers: Record<string, string> }) {
  return (
    <div>
      <h4 className="text-xs font-semibold uppercase text-slate-500">{title}</h4>
      <dl className="mt-1 grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-3 text-xs">
        {Object.entries(headers).map(([k, v]) => (
          <Fragment key={k}>
            <dt className="font-mono text-slate-500">{k}</dt>
            <dd className="break-all font-mono">{v}</dd>
          </Fragment>
        ))}
      </dl>
    </div>
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
    <div>
      <h4 className="text-xs font-semibold uppercase text-slate-500">{title}</h4>
      {body ? (
        <pre className="mt-1 max-h-72 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100">{text}</pre>
      ) : (
        <p className="text-xs text-slate-500">No body</p>
      )}
    </div>
  );
}

export function LogsExplorer({
  props,
  selectedId,
}: {
  props: { showRequestHeaders: boolean; showResponseBody: boolean; showTiming: boolean };
  selectedId: string | null;
}) {
  const [filters, setFilters] = useState({ q: "", method: "", statusCode: "" });
  const [cursor, setCursor] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(selectedId);
  const params = new URLSearchParams({ limit: "25" });
  if (filters.q) params.set("q", filters.q);
  if (filters.method) params.set("method", filters.method);
  if (filters.statusCode) params.set("statusCode", filters.statusCode);
  if (cursor) params.set("cursor", cursor);
  const list = useQuery({
    queryKey: ["logs", params.toString()],
    queryFn: () => get<Page>(`/api/portal/logs?${params}`),
    refetchInterval: cursor ? false : 5000,
  });
  const detail = useQuery({
    queryKey: ["log", selected],
    enabled: !!selected,
    queryFn: () => get<LogDetail>(`/api/portal/logs/${selected}`),
  });

  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <Card title="Requests">
        <form
          role="search"
          className="grid gap-3 sm:grid-cols-3 sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            setCursor(null);
            setFilters({
              q: String(f.get("q") ?? ""),
              method: String(f.get("method") ?? ""),
              statusCode: String(f.get("statusCode") ?? ""),
            });
          }}
        >
          <Field label="Search path or request id" htmlFor="log-q">
            <Input id="log-q" name="q" defaultValue={filters.q} placeholder="/v1/products" />
          </Field>
          <Field label="Method" htmlFor="log-method">
            <Select id="log-method" name="method" defaultValue={filters.method}>
              <option value="">Any</option>
              {["GET", "POST", "PATCH", "PUT", "DELETE"].map((m) => (
                <option key={m}>{m}</option>
              ))}
            </Select>
          </Field>
          <Field label="Status" htmlFor="log-status">
            <Input
              id="log-status"
              name="statusCode"
              inputMode="numeric"
              placeholder="e.g. 404 or 400,401"
              defaultValue={filters.statusCode}
            />
          </Field>
          <div className="sm:col-span-3">
            <Button type="submit">Search</Button>
          </div>
        </form>
        <div className="mt-4">
          {list.isLoading ? (
            <p className="text-sm text-slate-500">Loading…</p>
          ) : list.error ? (
            <p role="alert" className="text-sm text-red-600">
              {(list.error as Error).message}
            </p>
          ) : !list.data?.data.length ? (
            <EmptyState title="No requests match">Requests made with this project&apos;s keys show up here within a second.</EmptyState>
          ) : (
            <>
              <p className="text-xs text-slate-500">
                {list.data.pagination.total.toLocaleString()} {list.data.pagination.total === 1 ? "request" : "requests"}
              </p>
              <ul className="mt-2 divide-y divide-slate-100 dark:divide-slate-800">
                {list.data.data.map((r) => (
                  <li key={r.id}>
                    <button
                      type="button"
                      onClick={() => setSelected(r.id)}
                      aria-pressed={selected === r.id}
                      data-testid="log-row"
                      className={`flex w-full items-center gap-3 px-1 py-2 text-left text-sm hover:bg-slate-50 dark:hover:bg-slate-800 ${selected === r.id ? "bg-indigo-50 dark:bg-indigo-950" : ""}`}
                    >
                      <Badge tone={statusTone(r.statusCode)}>{r.statusCode}</Badge>
                      <span className="min-w-0 flex-1 truncate font-mono text-xs">
                        {r.method} {r.path}
                      </span>
                      {props.showTiming ? <span className="text-xs tabular-nums text-slate-500">{Math.round(r.latency)} ms</span> : null}
                    </button>
                  </li>
                ))}
              </ul>
              <div className="mt-3 flex gap-2">
                {cursor ? (
                  <Button variant="secondary" onClick={() => setCursor(null)}>
                    Newest
                  </Button>
                ) : null}
                {list.data.pagination.hasMore ? (
                  <Button variant="secondary" onClick={() => setCursor(list.data!.pagination.nextCursor)}>
                    Older
                  </Button>
                ) : null}
              </div>
            </>
          )}
        </div>
      </Card>
      <Card title="Request detail">
        {!selected ? (
          <p className="text-sm text-slate-500">Choose a request to see its headers, bodies and timing.</p>
        ) : detail.isLoading ? (
          <p className="text-sm text-slate-500">Loading…</p>
        ) : detail.error ? (
          <p role="alert" className="text-sm text-red-600">
            {(detail.error as Error).message}
          </p>
        ) : detail.data ? (
          <div className="space-y-4" data-testid="log-detail">
            <p className="font-mono text-sm">
              {detail.data.method} {detail.data.path} → <Badge tone={statusTone(detail.data.statusCode)}>{detail.data.statusCode}</Badge>
            </p>
            <p className="text-xs text-slate-500">
              {detail.data.id} · {new Date(detail.data.timestamp).toLocaleString()}
              {props.showTiming ? ` · ${detail.data.latency} ms` : ""} · {detail.data.ip ?? "unknown address"}
            </p>
            {props.showRequestHeaders ? <Headers title="Request headers" headers={detail.data.request.headers} /> : null}
            <Body title="Request body" body={detail.data.request.body} />
            {props.showRequestHeaders ? <Headers title="Response headers" headers={detail.data.response.headers} /> : null}
            {props.showResponseBody ? <Body title="Response body" body={detail.data.response.body} /> : null}
          </div>
        ) : null}
      </Card>
    </div>
  );
}
