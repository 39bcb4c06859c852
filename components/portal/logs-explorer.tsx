"use client";
import { useCallback } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Badge, Button, Card, EmptyState, statusTone } from "@/components/ui/primitives";
import { LogFilters, type KeyOption } from "./log-filters";
import { LogDrawer, type LogViewProps } from "./log-drawer";
import { portalGet } from "./portal-get";
import { CallViaBadge } from "./call-via";

// The request log as Stripe's: a table (time, method, path, status, latency, key, request id) under filters that
// live in the URL, and a drawer per request (?request=req_…). `?id=` is the older deep link and still opens it.

interface LogRow {
  id: string;
  timestamp: string;
  method: string;
  path: string;
  statusCode: number;
  latency: number;
  apiKey: string;
  keyName: string | null;
  via?: string;
  tool?: string | null;
}
type Page = { data: LogRow[]; pagination: { total: number; hasMore: boolean; nextCursor: string | null } };

const FILTERS = ["q", "status", "method", "path", "key", "range", "from", "to", "cursor"];

/**
 * `portal`: a product portal's slug; the server then answers only that portal's calls within its retention.
 * `emptyText`: what the empty log says will appear.
 */
export function LogsExplorer({
  props,
  keys,
  portal,
  emptyText = "Requests made with this project\u2019s keys show up here within a second.",
}: {
  props: LogViewProps;
  keys: KeyOption[];
  portal?: string;
  emptyText?: string;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const selected = search.get("request") ?? search.get("id");
  const filters = new URLSearchParams();
  for (const name of FILTERS) {
    const v = search.get(name);
    if (v) filters.set(name, v);
  }
  const cursor = filters.get("cursor");
  const query = new URLSearchParams(filters);
  if (portal) query.set("portal", portal);
  const list = useQuery({
    queryKey: ["logs", query.toString()],
    queryFn: () => portalGet<Page>(`/api/portal/logs?${query}`),
    placeholderData: keepPreviousData,
    refetchInterval: cursor ? false : 5000,
  });

  const hrefWith = useCallback(
    (changes: Record<string, string | null>) => {
      const next = new URLSearchParams(search.toString());
      next.delete("id");
      for (const [k, v] of Object.entries(changes)) {
        if (v === null) next.delete(k);
        else next.set(k, v);
      }
      const qs = next.toString();
      return qs ? `${pathname}?${qs}` : pathname;
    },
    [pathname, search],
  );
  const closeDrawer = useCallback(() => router.replace(hrefWith({ request: null }), { scroll: false }), [router, hrefWith]);

  return (
    <div className="space-y-4">
      <Card>
        <LogFilters
          key={filters.toString()}
          current={filters}
          keys={keys}
          onSearch={(next) => router.push(next.toString() ? `${pathname}?${next}` : pathname, { scroll: false })}
        />
      </Card>
      <Card title="Requests" actions={list.isFetching ? <span className="text-xs text-slate-500">Refreshing…</span> : null}>
        {list.isLoading ? (
          <p className="text-sm text-slate-500">Loading…</p>
        ) : list.error ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {(list.error as Error).message}
          </p>
        ) : !list.data?.data.length ? (
          <EmptyState title="No requests match">{emptyText}</EmptyState>
        ) : (
          <div aria-busy={list.isPlaceholderData} className={list.isPlaceholderData ? "opacity-60 transition-opacity" : ""}>
            <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="log-total">
              {list.data.pagination.total.toLocaleString()} {list.data.pagination.total === 1 ? "request" : "requests"}
            </p>
            <div className="mt-2 overflow-x-auto">
              <table className="w-full min-w-[44rem] text-left text-sm">
                <caption className="sr-only">Requests, newest first; choose one to open its details</caption>
                <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
                  <tr>
                    <th scope="col" className="py-2 pr-3">
                      Time
                    </th>
                    <th scope="col" className="pr-3">
                      Method
                    </th>
                    <th scope="col" className="pr-3">
                      Path
                    </th>
                    <th scope="col" className="pr-3">
                      Status
                    </th>
                    {props.showTiming ? (
                      <th scope="col" className="pr-3 text-right">
                        Latency
                      </th>
                    ) : null}
                    <th scope="col" className="pr-3">
                      Key
                    </th>
                    <th scope="col">Request id</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.data.map((r) => (
                    <tr
                      key={r.id}
                      data-testid="log-row"
                      aria-selected={selected === r.id}
                      onClick={() => router.push(hrefWith({ request: r.id }), { scroll: false })}
                      className={`cursor-pointer border-t border-slate-100 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800 ${selected === r.id ? "bg-indigo-50 dark:bg-indigo-950" : ""}`}
                    >
                      <td className="whitespace-nowrap py-2 pr-3 text-xs text-slate-600 dark:text-slate-400">
                        <time dateTime={r.timestamp}>{new Date(r.timestamp).toLocaleString()}</time>
                      </td>
                      <td className="pr-3 font-mono text-xs">{r.method}</td>
                      <td className="max-w-[18rem] truncate pr-3 font-mono text-xs">
                        <CallViaBadge call={r} />
                        <Link href={hrefWith({ request: r.id })} scroll={false} onClick={(e) => e.stopPropagation()}>
                          {r.path}
                        </Link>
                      </td>
                      <td className="pr-3">
                        <Badge tone={statusTone(r.statusCode)}>{r.statusCode}</Badge>
                      </td>
                      {props.showTiming ? <td className="pr-3 text-right tabular-nums">{Math.round(r.latency)} ms</td> : null}
                      <td className="max-w-[10rem] truncate pr-3 text-xs" title={r.apiKey}>
                        {r.keyName ?? r.apiKey}
                      </td>
                      <td className="whitespace-nowrap font-mono text-xs text-slate-600 dark:text-slate-400">{r.id}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="mt-3 flex gap-2">
              {cursor ? (
                <Button variant="secondary" onClick={() => router.push(hrefWith({ cursor: null }), { scroll: false })}>
                  Newest
                </Button>
              ) : null}
              {list.data.pagination.hasMore && list.data.pagination.nextCursor ? (
                <Button
                  variant="secondary"
                  onClick={() => router.push(hrefWith({ cursor: list.data!.pagination.nextCursor }), { scroll: false })}
                >
                  Older
                </Button>
              ) : null}
            </div>
          </div>
        )}
      </Card>
      {selected ? <LogDrawer id={selected} props={props} onClose={closeDrawer} portal={portal} /> : null}
    </div>
  );
}
