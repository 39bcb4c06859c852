import type { ToolCallStat } from "@/lib/usage/tool-call-stats";
import { Badge } from "@/components/ui/primitives";

// How a recorded call came in, where the logs and usage views show its path: an MCP tool call (docs/mcp.md) gets a
// small "MCP · {tool}" badge. Read from the row's `via` and `tool` (the usage and log APIs carry them), else from its
// path, /mcp/{slug}/tools/{tool}.

const TOOL_PATH = /^\/mcp\/[^/?#]+\/tools\/([^/?#]+)/;

export function mcpToolOf(call: { path: string; via?: string; tool?: string | null }): string | null {
  if (call.via && call.via !== "mcp") return null;
  if (call.tool) return call.tool;
  const m = TOOL_PATH.exec(call.path);
  return m ? decodeURIComponent(m[1]) : null;
}

export function CallViaBadge({ call }: { call: { path: string; via?: string; tool?: string | null } }) {
  const tool = mcpToolOf(call);
  return tool ? (
    <span className="mr-1 align-middle" data-testid="mcp-call-badge">
      <Badge tone="info">MCP · {tool}</Badge>
    </span>
  ) : null;
}

/** Tool calls per tool (lib/usage/tool-call-stats.ts): calls, errors and p50 latency. */
export function ToolCallTable({ stats, caption }: { stats: ToolCallStat[]; caption: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="tool-call-stats">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs text-slate-500 uppercase">
          <tr>
            <th scope="col" className="py-2 pr-3">
              Tool
            </th>
            <th scope="col" className="pr-3 text-right">
              Calls
            </th>
            <th scope="col" className="pr-3 text-right">
              Errors
            </th>
            <th scope="col" className="text-right">
              p50
            </th>
          </tr>
        </thead>
        <tbody>
          {stats.map((s) => (
            <tr key={s.tool} className="border-t border-slate-100 dark:border-slate-800" data-testid="tool-call-row">
              <th scope="row" className="py-2 pr-3 text-left font-mono text-xs font-normal break-all">
                {s.tool}
              </th>
              <td className="pr-3 text-right tabular-nums">{s.calls.toLocaleString()}</td>
              <td className="pr-3 text-right tabular-nums">{s.errors.toLocaleString()}</td>
              <td className="text-right whitespace-nowrap tabular-nums">{s.p50Ms === null ? "—" : `${s.p50Ms.toFixed(1)} ms`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
