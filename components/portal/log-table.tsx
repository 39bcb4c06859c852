import Link from "next/link";
import { Badge, statusTone } from "@/components/ui/primitives";
import { CallViaBadge } from "./call-via";

export interface LogRowView {
  id: string;
  timestamp: string;
  method: string;
  path: string;
  statusCode: number;
  latency: number;
  /** How the call came in (the log API's via/tool): an MCP tool call is marked with its tool. */
  via?: string;
  tool?: string | null;
}

/** `logsPath`: the logs view a row opens in (its drawer, ?request=…): the console's, or a product portal's. */
export function LogTable({
  rows,
  compact = false,
  logsPath = "/portal/logs",
}: {
  rows: LogRowView[];
  compact?: boolean;
  logsPath?: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Requests, newest first</caption>
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-3">
              Status
            </th>
            <th scope="col" className="pr-3">
              Request
            </th>
            {compact ? null : (
              <th scope="col" className="pr-3">
                Latency
              </th>
            )}
            <th scope="col">Time</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className="border-t border-slate-100 dark:border-slate-800">
              <td className="py-2 pr-3">
                <Badge tone={statusTone(r.statusCode)}>{r.statusCode}</Badge>
              </td>
              <td className="max-w-xs truncate pr-3 font-mono text-xs">
                <CallViaBadge call={r} />
                <Link href={`${logsPath}?request=${r.id}`}>
                  {r.method} {r.path}
                </Link>
              </td>
              {compact ? null : <td className="pr-3 tabular-nums">{Math.round(r.latency)} ms</td>}
              <td className="whitespace-nowrap text-xs text-slate-500">
                <time dateTime={r.timestamp}>{new Date(r.timestamp).toLocaleString()}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
