import Link from "next/link";
import type { ReactNode } from "react";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { DEVELOPER_VIEWS } from "@/lib/apps/developer-app";
import { consoleApp } from "@/lib/portal/console-app";
import { shellStyle } from "@/components/apps/shell-theme";
import { PortalNav } from "@/components/portal/portal-nav";
import { EnvironmentSwitch } from "@/components/portal/environment-switch";
import { SignOutButton } from "@/components/portal/sign-out-button";
import { QueryProvider } from "@/components/portal/query-provider";
import { Badge } from "@/components/ui/primitives";

export const dynamic = "force-dynamic";

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const ctx = await requirePortalContext();
  // The console is drawn from the business's stored console app (lib/apps/console-app.ts): name, nav switches, theme.
  const { id: consoleAppId, app: config } = await consoleApp(ctx);
  const hidden: Record<string, boolean> = {
    "/keys": !config.config.showAPIKeys,
    "/webhooks": !config.config.showWebhooks,
    "/usage": !config.config.showUsage,
    "/logs": !config.config.showLogs,
    "/docs": !config.config.showDocs,
  };
  const items: { href: string; label: string }[] = DEVELOPER_VIEWS.filter((v) => !hidden[v.path]).map((v) => ({
    href: `/portal${v.path}`,
    label: v.name,
  }));
  // OAuth apps (lib/oauth) sit before Settings; they are the platform's own view, not one of the spec's Developer views.
  items.splice(
    Math.max(
      0,
      items.findIndex((i) => i.href === "/portal/settings"),
    ),
    0,
    { href: "/portal/oauth-apps", label: "OAuth apps" },
  );
  // The marketplace (issue 17), before OAuth apps: what the business buys, then what it sells and is paid (issue 60).
  items.splice(
    items.findIndex((i) => i.href === "/portal/oauth-apps"),
    0,
    { href: "/portal/subscriptions", label: "Subscriptions" },
    { href: "/portal/products", label: "Products" },
    { href: "/portal/apps", label: "Apps" },
    { href: "/portal/customers", label: "Customers" },
    { href: "/portal/revenue", label: "Revenue" },
    { href: "/portal/payouts", label: "Payouts" },
  );
  return (
    <QueryProvider>
      <div className="min-h-screen" data-console-app={consoleAppId ?? "defaults"} style={consoleStyle(config.theme)}>
        {ctx.environment === "test" ? (
          <div data-testid="test-mode-band" className="bg-orange-500 px-4 py-1 text-center text-xs font-medium text-slate-950">
            <strong className="font-semibold uppercase tracking-wide">Test mode</strong> · You are viewing test data. Test traffic is never
            billed.
          </div>
        ) : null}
        <header className="border-t-4 border-b border-t-(--app-accent) border-b-slate-200 bg-white dark:border-b-slate-800 dark:bg-slate-900">
          <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3">
            <div className="flex min-w-0 items-center gap-3">
              <Link href="/portal" className="font-bold text-(--app-accent-strong) no-underline" data-testid="console-name">
                {config.name}
              </Link>
              <span className="truncate text-sm text-slate-500 dark:text-slate-400">
                {ctx.business.name} · {ctx.project.name}
              </span>
              <Badge tone="info">{ctx.business.plan}</Badge>
            </div>
            <div className="flex items-center gap-3">
              <EnvironmentSwitch environment={ctx.environment} />
              <span className="hidden text-sm text-slate-600 sm:inline dark:text-slate-300">{ctx.user.email}</span>
              <SignOutButton />
            </div>
          </div>
        </header>
        <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 md:flex-row">
          <PortalNav items={items} />
          <main id="main" className="min-w-0 flex-1">
            {children}
          </main>
        </div>
      </div>
    </QueryProvider>
  );
}

/**
 * The console app's theme as CSS variables (--app-accent, …) for the header and nav. Its colours only: the console
 * keeps following the visitor's light or dark setting, as the rest of its pages are styled for both.
 */
function consoleStyle(theme: Parameters<typeof shellStyle>[0]) {
  const { colorScheme: _mode, ...colours } = shellStyle(theme);
  return colours;
}
