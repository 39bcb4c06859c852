import { Card, EmptyState } from "@/components/ui/primitives";
import { day } from "@/components/marketplace/format";
import type { UsageCorrection } from "@/lib/portal/usage-corrections";

// Corrected usage (issue 40): each amendment or void of a meter event, the units it changed and why. Shown to the
// consumer on its subscription and to the provider on its customer's page.

const signed = (n: number) => (n > 0 ? `+${n.toLocaleString("en-US")}` : n < 0 ? `−${(-n).toLocaleString("en-US")}` : "0");

export function UsageCorrectionsCard({ corrections, description }: { corrections: UsageCorrection[]; description: string }) {
  return (
    <Card title="Corrections">
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{description}</p>
      {corrections.length === 0 ? (
        <EmptyState title="No corrections">No usage has been amended or voided.</EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="usage-corrections">
            <caption className="sr-only">Corrected usage</caption>
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th scope="col" className="py-2 pr-3">
                  Corrected
                </th>
                <th scope="col" className="pr-3">
                  Change
                </th>
                <th scope="col" className="pr-3">
                  Units
                </th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {corrections.map((c) => (
                <tr key={c.id} className="border-t border-slate-200 align-top dark:border-slate-800">
                  <td className="py-2 pr-3 whitespace-nowrap">
                    {day(c.correctedAt ?? c.usageAt)}
                    <span className="block text-xs text-slate-500">usage of {day(c.usageAt)}</span>
                  </td>
                  <td className="py-2 pr-3">
                    {c.action === "voided" ? "Voided" : "Amended"}
                    {c.from !== null && c.to !== null ? (
                      <span className="block text-xs text-slate-500 tabular-nums">
                        {c.from.toLocaleString("en-US")} → {c.to.toLocaleString("en-US")}
                      </span>
                    ) : null}
                  </td>
                  <td className="py-2 pr-3 tabular-nums">{signed(c.difference)}</td>
                  <td className="py-2 break-words">
                    {c.reason ?? "—"}
                    <span className="block font-mono text-xs text-slate-500 break-all">{c.originalId}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
