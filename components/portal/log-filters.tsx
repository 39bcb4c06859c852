"use client";
import { useState } from "react";
import { Button, Field, Input, Select } from "@/components/ui/primitives";

// The logs' filter form. Its values come from the URL and go back to it on Search (logs-explorer.tsx), so every
// search is a link. A custom range is typed in local time and sent as ISO 8601.

export interface KeyOption {
  id: string;
  name: string;
  revoked: boolean;
}

const RANGES: [string, string][] = [
  ["", "Any time"],
  ["1h", "Last hour"],
  ["24h", "Last 24 hours"],
  ["7d", "Last 7 days"],
  ["30d", "Last 30 days"],
  ["custom", "Custom range"],
];

/** An ISO date as a datetime-local input's value, in the reader's time zone. */
function localInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function LogFilters({
  current,
  keys,
  onSearch,
}: {
  current: URLSearchParams;
  keys: KeyOption[];
  onSearch: (next: URLSearchParams) => void;
}) {
  const initialRange = current.get("from") || current.get("to") ? "custom" : (current.get("range") ?? "");
  const [range, setRange] = useState(initialRange);
  return (
    <form
      role="search"
      aria-label="Filter requests"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const next = new URLSearchParams();
        for (const name of ["q", "status", "method", "path", "key"]) {
          const v = String(f.get(name) ?? "").trim();
          if (v) next.set(name, v);
        }
        if (range === "custom") {
          for (const name of ["from", "to"]) {
            const v = String(f.get(name) ?? "");
            if (v && !Number.isNaN(new Date(v).getTime())) next.set(name, new Date(v).toISOString());
          }
        } else if (range) next.set("range", range);
        onSearch(next);
      }}
    >
      <Field label="Search path or request id" htmlFor="log-q">
        <Input id="log-q" name="q" defaultValue={current.get("q") ?? ""} placeholder="req_… or limit=10" />
      </Field>
      <Field label="Status" htmlFor="log-status">
        <Select id="log-status" name="status" defaultValue={current.get("status") ?? ""}>
          <option value="">Any status</option>
          <option value="2xx">2xx succeeded</option>
          <option value="3xx">3xx redirected</option>
          <option value="4xx">4xx client errors</option>
          <option value="5xx">5xx server errors</option>
        </Select>
      </Field>
      <Field label="Method" htmlFor="log-method">
        <Select id="log-method" name="method" defaultValue={current.get("method") ?? ""}>
          <option value="">Any method</option>
          {["GET", "POST", "PATCH", "PUT", "DELETE"].map((m) => (
            <option key={m}>{m}</option>
          ))}
        </Select>
      </Field>
      <Field label="Path starts with" htmlFor="log-path">
        <Input id="log-path" name="path" defaultValue={current.get("path") ?? ""} placeholder="/v1/products" />
      </Field>
      <Field label="Key" htmlFor="log-key">
        <Select id="log-key" name="key" defaultValue={current.get("key") ?? ""}>
          <option value="">Any key</option>
          {keys.map((k) => (
            <option key={k.id} value={k.id}>
              {k.name}
              {k.revoked ? " (revoked)" : ""}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Date range" htmlFor="log-range">
        <Select id="log-range" value={range} onChange={(e) => setRange(e.target.value)}>
          {RANGES.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </Select>
      </Field>
      {range === "custom" ? (
        <>
          <Field label="From" htmlFor="log-from">
            <Input id="log-from" name="from" type="datetime-local" defaultValue={localInput(current.get("from"))} />
          </Field>
          <Field label="To" htmlFor="log-to">
            <Input id="log-to" name="to" type="datetime-local" defaultValue={localInput(current.get("to"))} />
          </Field>
        </>
      ) : null}
      <div className="flex gap-2 sm:col-span-2 lg:col-span-4">
        <Button type="submit">Search</Button>
        <Button type="button" variant="ghost" onClick={() => onSearch(new URLSearchParams())}>
          Clear filters
        </Button>
      </div>
    </form>
  );
}
