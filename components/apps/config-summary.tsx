import type { AppConfig } from "@/lib/apps/app-types";

// The type's `config` settings as the shell received them, behind a disclosure (a native <details>, so it opens
// with Enter or Space and needs no script).

function display(value: unknown): string {
  if (typeof value === "boolean") return value ? "on" : "off";
  if (Array.isArray(value)) return value.length ? value.join(", ") : "none";
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    return entries.length ? entries.map(([k, v]) => `${k}: ${display(v)}`).join("; ") : "none";
  }
  return value === undefined || value === "" ? "not set" : String(value);
}

export function ConfigSummary({ app }: { app: AppConfig }) {
  const entries = Object.entries(app.config ?? {});
  if (!entries.length) return null;
  return (
    <details className="mt-8 rounded-lg border border-(--app-border) bg-(--app-card)">
      <summary className="cursor-pointer rounded-lg px-4 py-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-(--app-accent)">
        Configuration ({entries.length} settings)
      </summary>
      <dl className="grid gap-x-6 gap-y-2 border-t border-(--app-border) px-4 py-3 text-sm sm:grid-cols-[max-content_1fr]">
        {entries.map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="font-mono text-xs text-(--app-muted) sm:pt-0.5">{key}</dt>
            <dd className="mb-2 min-w-0 break-words sm:mb-0">{display(value)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
