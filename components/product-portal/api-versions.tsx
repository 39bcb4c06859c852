// The API versions a Developer app lists (`config.apiVersions`): the first is the current one, the others are still
// available. Shown on the portal's documentation page.

export function ApiVersions({ versions }: { versions: string[] }) {
  if (!versions.length) return null;
  return (
    <div className="mt-3">
      <h2 className="text-sm font-semibold">Versions</h2>
      <ul className="mt-1 flex flex-wrap gap-2 text-sm" data-testid="api-versions">
        {versions.map((v, i) => (
          <li key={v} className="rounded-md border border-(--app-border) bg-(--app-card) px-2 py-1">
            <code>{v}</code> <span className="text-(--app-muted)">{i === 0 ? "current" : "available"}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
