import { requirePortalContext } from "@/lib/portal/portal-context";
import { developerPortalConfig } from "@/lib/apps/developer-app";
import { LogsExplorer } from "@/components/portal/logs-explorer";

export const metadata = { title: "Logs · Developer Portal" };

export default async function DeveloperLogs({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requirePortalContext();
  const props = developerPortalConfig().views.logs;
  const { id } = await searchParams;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Logs</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Every API request of this project in {ctx.environment === "test" ? "test" : "live"} mode, kept {ctx.project.retentionDays} days.
          Credentials and secrets are redacted.
        </p>
      </div>
      <LogsExplorer props={props} selectedId={id ?? null} />
    </div>
  );
}
