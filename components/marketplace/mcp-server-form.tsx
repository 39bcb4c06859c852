"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { McpOperationRow } from "@/lib/products/mcp-settings";
import { refreshOpenApiAction, saveMcpSettingsAction } from "@/app/portal/marketplace-actions";
import { Button, Input } from "@/components/ui/primitives";

// The provider's MCP server settings on the product page: on/off, which of the document's operations are tools, and
// each tool's name and description (docs/mcp.md). Saved as the product's api.mcp; a refusal is shown beside the
// operation its field names (api.mcp.tools.{operationId}.name), else above the button. "Refresh OpenAPI document"
// fetches the product's openapiUrl again.

type Row = Pick<McpOperationRow, "operationId" | "tool" | "rename" | "description">;

export function McpServerForm({
  productId,
  enabled: initialEnabled,
  operations,
  canRefresh,
}: {
  productId: string;
  enabled: boolean;
  operations: McpOperationRow[];
  canRefresh: boolean;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [enabled, setEnabled] = useState(initialEnabled);
  const [rows, setRows] = useState<Row[]>(
    operations.map(({ operationId, tool, rename, description }) => ({ operationId, tool, rename, description })),
  );
  const [error, setError] = useState<{ message: string; path?: string } | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const set = (id: string, change: Partial<Row>) => setRows(rows.map((r) => (r.operationId === id ? { ...r, ...change } : r)));
  const errorOn = (id: string, part: "name" | "description") => (error?.path === `api.mcp.tools.${id}.${part}` ? error.message : null);
  const rowError = (id: string) => errorOn(id, "name") ?? errorOn(id, "description");
  const shownOnRow = rows.some((r) => rowError(r.operationId));

  function save() {
    start(async () => {
      const r = await saveMcpSettingsAction(productId, { enabled, operations: rows });
      if (!r.ok) {
        setStatus(null);
        return setError({ message: r.error?.message ?? "Could not save the MCP settings.", path: r.error?.path });
      }
      setError(null);
      setStatus("Saved");
      router.refresh();
    });
  }

  function refresh() {
    start(async () => {
      const r = await refreshOpenApiAction(productId);
      if (!r.ok) {
        setStatus(null);
        return setError({ message: r.error?.message ?? "Could not fetch the OpenAPI document.", path: r.error?.path });
      }
      setError(null);
      setStatus("OpenAPI document fetched again");
      router.refresh();
    });
  }

  return (
    <form
      className="space-y-4"
      data-testid="mcp-settings"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        Serve this product as an MCP server
      </label>
      {operations.length ? (
        <fieldset className="space-y-3" disabled={!enabled}>
          <legend className="text-sm font-medium">Tools (one per operation of the OpenAPI document)</legend>
          {operations.map((o) => {
            const row = rows.find((r) => r.operationId === o.operationId)!;
            const problem = rowError(o.operationId);
            const id = `mcp-op-${o.operationId.replace(/[^A-Za-z0-9_-]/g, "_")}`;
            return (
              <div key={o.operationId} className="rounded-md border border-slate-200 p-3 dark:border-slate-800" data-testid="mcp-operation">
                <label className="flex flex-wrap items-center gap-2 text-sm" htmlFor={`${id}-tool`}>
                  <input
                    id={`${id}-tool`}
                    type="checkbox"
                    checked={row.tool}
                    onChange={(e) => set(o.operationId, { tool: e.target.checked })}
                  />
                  <span className="font-mono text-xs break-all">{o.operationId}</span>
                  <span className="font-mono text-xs break-all text-slate-500">
                    {o.method} {o.path}
                  </span>
                </label>
                {o.summary ? <p className="mt-1 text-xs text-slate-500">{o.summary}</p> : null}
                <div className="mt-2 grid gap-2 sm:grid-cols-2">
                  <Input
                    aria-label={`Tool name for ${o.operationId}`}
                    placeholder={o.toolName ?? o.operationId}
                    value={row.rename}
                    invalid={!!errorOn(o.operationId, "name")}
                    onChange={(e) => set(o.operationId, { rename: e.target.value })}
                  />
                  <Input
                    aria-label={`Tool description for ${o.operationId}`}
                    placeholder="Description (the document's summary when empty)"
                    value={row.description}
                    invalid={!!errorOn(o.operationId, "description")}
                    onChange={(e) => set(o.operationId, { description: e.target.value })}
                  />
                </div>
                {problem ? (
                  <p role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
                    {problem}
                  </p>
                ) : null}
              </div>
            );
          })}
        </fieldset>
      ) : (
        <p className="text-sm text-slate-500">
          The product has no OpenAPI document, so it has no tools: set an OpenAPI URL or upload a document (api.openapiDocument).
        </p>
      )}
      {error && !shownOnRow ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400" data-testid="mcp-settings-error">
          {error.message}
        </p>
      ) : null}
      {status ? (
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
          {status}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Working…" : "Save MCP settings"}
        </Button>
        {canRefresh ? (
          <Button type="button" variant="secondary" onClick={refresh} disabled={pending}>
            Refresh OpenAPI document
          </Button>
        ) : null}
      </div>
    </form>
  );
}
