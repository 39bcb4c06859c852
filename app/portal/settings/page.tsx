import { listTeamMembers } from "@/lib/businesses/team";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { DEFAULT_NOTIFY_AT, PLAN_LIMITS } from "@/lib/limits/plans";
import { Card } from "@/components/ui/primitives";
import { EnvironmentSwitch } from "@/components/portal/environment-switch";
import { SettingsForm, TeamMembers } from "@/components/portal/settings-forms";
import { AuthorizedApps } from "@/components/portal/authorized-apps";
import { listAuthorizedApps } from "@/lib/oauth/authorized-apps";

export const metadata = { title: "Settings · Developer Portal" };

export default async function DeveloperSettings() {
  const ctx = await requirePortalContext();
  const apps = await listAuthorizedApps(ctx.business.id);
  const members = await listTeamMembers(ctx.business.id);
  const canAdmin = ctx.auth.scopes.includes("*");
  const plan = PLAN_LIMITS[ctx.business.plan];
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Settings</h1>
      <SettingsForm
        canEdit={canAdmin}
        initial={{
          businessName: ctx.business.name,
          projectName: ctx.project.name,
          retentionDays: ctx.project.retentionDays,
          quotaNotifyAt: (ctx.project.quotaNotifyAt ?? DEFAULT_NOTIFY_AT).join(", "),
        }}
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Plan">
          <p className="text-sm">
            You are on the <strong>{ctx.business.plan}</strong> plan: {plan.perMinute.toLocaleString()} requests a minute per key (bursts of{" "}
            {plan.burst.toLocaleString()}),
            {plan.monthlyQuota === null ? " no monthly cap." : ` ${plan.monthlyQuota.toLocaleString()} requests a month per project.`}
          </p>
        </Card>
        <Card title="Environment">
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
            Test and live data are separate, as are their keys, webhooks, usage and logs.
          </p>
          <EnvironmentSwitch environment={ctx.environment} id="settings-test-mode" />
        </Card>
      </div>
      <AuthorizedApps
        apps={apps.map(({ grantIds: _, ...a }) => a)}
        currentUserId={ctx.user.id}
        isAdmin={ctx.role === "owner" || ctx.role === "admin"}
      />
      <TeamMembers canEdit={canAdmin} members={members.map((m) => ({ id: m.id, email: m.email, name: m.name, role: m.role }))} />
    </div>
  );
}
