import type { PanelBlock } from "@/lib/apps/panel-blocks";
import type { PanelContent } from "@/lib/apps/load-panels";
import { RevenueChart } from "@/components/marketplace/revenue-chart";
import { UsagePanelChart } from "./usage-panel-chart";

// What a stored app's view or panel shows (lib/apps/load-panels.ts): numbers, tables and charts of the business's
// own data, or one sentence saying why there is none. Colours come from the shell's variables, so a forced light
// or dark theme and custom colours apply here too.

const STATE_LABEL: Record<Exclude<PanelContent["state"], "data">, string> = {
  empty: "No data source",
  private: "Private",
  forbidden: "Not for your role",
  failed: "Unavailable",
};

export function PanelBody({ content }: { content: PanelContent }) {
  if (content.state !== "data")
    return (
      <div data-panel-state={content.state} className="rounded-md border border-dashed border-(--app-border) p-3">
        <p className="text-xs font-semibold tracking-wide text-(--app-muted) uppercase">{STATE_LABEL[content.state]}</p>
        <p className="mt-1 text-sm">{content.text}</p>
      </div>
    );
  return (
    <div data-panel-state="data" className="space-y-4">
      {content.blocks.map((block, i) => (
        <Block key={i} block={block} />
      ))}
    </div>
  );
}

function Block({ block }: { block: PanelBlock }) {
  switch (block.type) {
    case "stats":
      return (
        <dl className="grid grid-cols-[repeat(auto-fill,minmax(7rem,1fr))] gap-2">
          {block.items.map((s) => (
            <div key={s.id} className="min-w-0 rounded-md border border-(--app-border) bg-(--app-surface) px-3 py-2">
              <dt className="text-xs tracking-wide text-(--app-muted) uppercase">{s.label}</dt>
              <dd data-testid={`stat-${s.id}`} className="mt-0.5 text-lg font-semibold break-words tabular-nums">
                {s.value}
              </dd>
              {s.hint ? <dd className="mt-1 text-xs text-(--app-muted)">{s.hint}</dd> : null}
            </div>
          ))}
        </dl>
      );
    case "table":
      return block.rows.length ? (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={block.caption}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{block.caption}</caption>
            <thead className="text-xs text-(--app-muted) uppercase">
              <tr>
                {block.columns.map((c) => (
                  <th key={c} scope="col" className="py-2 pr-3 font-medium whitespace-nowrap">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((r) => (
                <tr key={r.id} data-row={r.id} className="border-t border-(--app-border)">
                  {r.cells.map((cell, i) => (
                    <td key={i} className="max-w-xs truncate py-2 pr-3" title={cell}>
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="text-sm text-(--app-muted)">{block.empty}</p>
      );
    case "usage-chart":
      return <UsagePanelChart caption={block.caption} points={block.points} />;
    case "revenue-chart":
      return <RevenueChart currency={block.currency} points={block.points} />;
  }
}
