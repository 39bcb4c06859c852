"use client";
import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Badge, Field, Select } from "@/components/ui/primitives";
import { portalGet } from "./portal-get";

// An endpoint's messages (deliveries), newest first: time, event type, status, attempts, the last answer and
// the next retry. Choosing one opens it in the message drawer (webhook-message-drawer.tsx) via the URL.

export interface Delivery {
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

export const deliveryTone = (s: string) =>
  s === "success" ? "success" : s === "failed" ? "danger" : s === "retrying" ? "warning" : "neutral";

export function WebhookMessages({
  webhookId,
  eventTypes,
  selected,
  onOpen,
}: {
  webhookId: string;
  eventTypes: string[];
  selected: string | null;
  onOpen: (deliveryId: string) => void;
}) {
  const [status, setStatus] = useState("");
  const [event, setEvent] = useState("");
  const params = new URLSearchParams({ limit: "20", ...(status ? { status } : {}), ...(event ? { event } : {}) });
  const key = `/api/portal/webhooks/${webhookId}/deliveries?${params}`;
  const { data, isLoading, error, isPlaceholderData } = useQuery({
    queryKey: [key],
    refetchInterval: 3000,
    placeholderData: keepPreviousData,
    queryFn: () => portalGet<{ data: Delivery[] }>(key),
  });
  return (
    <div className="mt-4">
      <h3 className="text-sm font-semibold">Messages</h3>
      <div className="mt-2 flex flex-wrap items-end gap-3">
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
        <p className="mt-3 text-sm text-slate-500">Loading messages…</p>
      ) : error ? (
        <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
          {String((error as Error).message)}
        </p>
      ) : !data?.data.length ? (
        <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">No messages match.</p>
      ) : (
        <div className={`mt-3 overflow-x-auto ${isPlaceholderData ? "opacity-60" : ""}`} aria-busy={isPlaceholderData}>
          <table className="w-full min-w-[40rem] text-left text-sm">
            <caption className="sr-only">Messages to this endpoint, newest first; choose one to see its payload and attempts</caption>
            <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
              <tr>
                <th scope="col" className="py-1 pr-3">
                  Time
                </th>
                <th scope="col" className="pr-3">
                  Event
                </th>
                <th scope="col" className="pr-3">
                  Status
                </th>
                <th scope="col" className="pr-3 text-right">
                  Attempts
                </th>
                <th scope="col" className="pr-3">
                  Last answer
                </th>
                <th scope="col">Next retry</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((d) => (
                <tr
                  key={d.id}
                  data-testid="delivery-row"
                  aria-selected={selected === d.id}
                  onClick={() => onOpen(d.id)}
                  className={`cursor-pointer border-t border-slate-100 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800 ${selected === d.id ? "bg-indigo-50 dark:bg-indigo-950" : ""}`}
                >
                  <td className="whitespace-nowrap py-1.5 pr-3 text-xs text-slate-600 dark:text-slate-400">
                    <time dateTime={d.createdAt}>{new Date(d.createdAt).toLocaleString()}</time>
                  </td>
                  <td className="pr-3 font-mono text-xs">
                    <button
                      type="button"
                      className="text-left underline-offset-2 hover:underline"
                      onClick={(e) => {
                        e.stopPropagation();
                        onOpen(d.id);
                      }}
                    >
                      {d.eventType}
                    </button>
                  </td>
                  <td className="pr-3">
                    <Badge tone={deliveryTone(d.status)}>{d.status}</Badge>
                  </td>
                  <td className="pr-3 text-right tabular-nums">{d.attempts}</td>
                  <td className="max-w-[12rem] truncate pr-3 text-xs" title={d.error ?? undefined}>
                    {d.response?.statusCode ?? d.error ?? "—"}
                  </td>
                  <td className="whitespace-nowrap text-xs">{d.nextRetry ? new Date(d.nextRetry).toLocaleTimeString() : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
