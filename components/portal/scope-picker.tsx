"use client";
import { useId, useState } from "react";
import { Button, Input } from "@/components/ui/primitives";

// A key's permissions by resource, as Stripe's restricted keys: one choice per resource (none, read, read and
// write, full), presets for all resources at once, and a search box, instead of a checkbox per scope.

export type Level = "none" | "read" | "write" | "full";
export type Levels = Record<string, Level>;

const LEVEL_WORDS: Record<Level, string> = { none: "None", read: "Read", write: "Read and write", full: "Full (incl. delete)" };

export const allLevels = (resources: readonly string[], level: Level): Levels => Object.fromEntries(resources.map((r) => [r, level]));

/** The scopes a set of choices grants: `*` when every resource has full access. */
export function scopesFor(levels: Levels): string[] {
  const entries = Object.entries(levels);
  if (entries.length && entries.every(([, l]) => l === "full")) return ["*"];
  return entries.flatMap(([r, l]) =>
    l === "read" ? [`${r}:read`] : l === "write" ? [`${r}:read`, `${r}:write`] : l === "full" ? [`${r}:*`] : [],
  );
}

/** "api_keys" → "API keys", for labels. */
export const resourceWords = (resource: string) => {
  const w = resource
    .replaceAll("_", " ")
    .replace(/^api\b/, "API")
    .replace(/^oauth\b/, "OAuth");
  return w[0].toUpperCase() + w.slice(1);
};

export function ScopePicker({
  resources,
  levels,
  onChange,
  error,
}: {
  resources: readonly string[];
  levels: Levels;
  onChange: (levels: Levels) => void;
  error?: string | null;
}) {
  const id = useId();
  const [query, setQuery] = useState("");
  const q = query.trim().toLowerCase();
  const shown = resources.filter((r) => !q || r.includes(q) || resourceWords(r).toLowerCase().includes(q));
  const scopes = scopesFor(levels);
  const summary =
    scopes[0] === "*"
      ? "Full access to every resource (*)."
      : scopes.length
        ? `${scopes.length} scopes: ${scopes.join(", ")}`
        : "No access yet.";
  return (
    <fieldset className="min-w-0" aria-describedby={error ? `${id}-error` : `${id}-summary`}>
      <legend className="text-sm font-medium">Permissions</legend>
      <div className="mt-2 flex flex-wrap items-center gap-2" role="group" aria-label="Presets for every resource">
        <Button type="button" variant="secondary" onClick={() => onChange(allLevels(resources, "full"))}>
          Full access
        </Button>
        <Button type="button" variant="secondary" onClick={() => onChange(allLevels(resources, "write"))}>
          Read and write
        </Button>
        <Button type="button" variant="secondary" onClick={() => onChange(allLevels(resources, "read"))}>
          Read only
        </Button>
        <Button type="button" variant="ghost" onClick={() => onChange(allLevels(resources, "none"))}>
          Clear
        </Button>
      </div>
      <div className="mt-3 max-w-sm">
        <label htmlFor={`${id}-search`} className="sr-only">
          Search resources
        </label>
        <Input id={`${id}-search`} type="search" placeholder="Search resources" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      <div className="mt-3 max-h-80 overflow-y-auto rounded-md border border-slate-200 dark:border-slate-800">
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {shown.map((r) => (
            <li key={r} className="flex flex-wrap items-center justify-between gap-2 px-3 py-1.5 text-sm">
              <label htmlFor={`${id}-${r}`}>{resourceWords(r)}</label>
              <select
                id={`${id}-${r}`}
                value={levels[r] ?? "none"}
                onChange={(e) => onChange({ ...levels, [r]: e.target.value as Level })}
                className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
              >
                {(Object.keys(LEVEL_WORDS) as Level[]).map((l) => (
                  <option key={l} value={l}>
                    {LEVEL_WORDS[l]}
                  </option>
                ))}
              </select>
            </li>
          ))}
          {shown.length === 0 ? (
            <li className="px-3 py-2 text-sm text-slate-600 dark:text-slate-400">No resource matches “{query}”.</li>
          ) : null}
        </ul>
      </div>
      <p id={`${id}-summary`} className="mt-2 break-words text-xs text-slate-600 dark:text-slate-400" data-testid="scope-summary">
        {summary}
      </p>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
