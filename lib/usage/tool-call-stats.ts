import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import type { AuthContext } from "@/lib/http/auth-context";
import { callOrigin } from "./call-origin";

// MCP tool calls counted per tool: each tools/call is one usage event with endpoint /mcp/{slug} and path
// /mcp/{slug}/tools/{tool} (lib/server/mcp-front-door.ts), so the tool is read from the path, as the usage and log
// APIs read it. The provider's product page and a consumer's usage views ask with their own `where`.

export interface ToolCallStat {
  tool: string;
  calls: number;
  errors: number;
  /** Median latency in ms of the calls read; null without calls. */
  p50Ms: number | null;
}

/** Rows the stats are made from: one per call. */
export interface ToolCallRow {
  endpoint: string;
  path: string;
  statusCode: number;
  latency: number;
}

/** The latency sample per window: enough for a median, bounded for a busy product. */
export const TOOL_CALL_SAMPLE = 50_000;

const median = (sorted: number[]) => (sorted.length ? sorted[Math.ceil(sorted.length / 2) - 1] : null);

/** Calls, errors (status ≥ 400) and p50 latency per tool, the most called first (then by name). */
export function summarizeToolCalls(rows: ToolCallRow[]): ToolCallStat[] {
  const byTool = new Map<string, { calls: number; errors: number; latencies: number[] }>();
  for (const r of rows) {
    const { via, tool } = callOrigin(r.endpoint, r.path);
    if (via !== "mcp" || !tool) continue;
    const s = byTool.get(tool) ?? { calls: 0, errors: 0, latencies: [] };
    s.calls++;
    if (r.statusCode >= 400) s.errors++;
    s.latencies.push(r.latency);
    byTool.set(tool, s);
  }
  return [...byTool.entries()]
    .map(([tool, s]) => ({ tool, calls: s.calls, errors: s.errors, p50Ms: median(s.latencies.sort((a, b) => a - b)) }))
    .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool));
}

/**
 * The tool calls among the usage events matching `where` (which should name the product or the project, and a time
 * window): the newest TOOL_CALL_SAMPLE of them, per tool.
 */
export async function toolCallStats(where: Record<string, unknown>): Promise<ToolCallStat[]> {
  const rows = await db.usageEvent.findMany({
    where: { endpoint: { startsWith: "/mcp/" }, ...where },
    select: { endpoint: true, path: true, statusCode: true, latency: true },
    orderBy: { timestamp: "desc" },
    take: TOOL_CALL_SAMPLE,
  });
  return summarizeToolCalls(rows);
}

/** A consumer's tool calls of the last `days` days in the key's project and environment (a portal's products only). */
export function projectToolCallStats(auth: Pick<AuthContext, "projectId" | "environment">, days = 7, productIds?: string[]) {
  const to = now();
  return toolCallStats({
    projectId: auth.projectId,
    environment: auth.environment,
    timestamp: { gte: new Date(to.getTime() - days * 86_400_000), lt: to },
    ...(productIds ? { productId: { in: productIds } } : {}),
  });
}
