"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { revokeAuthorizedAppAction } from "@/app/portal/oauth-actions";
import { Badge, Button, Card, EmptyState } from "@/components/ui/primitives";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { describeScope } from "@/lib/oauth/scope-words";

// Settings → Authorized apps: the third-party applications allowed to act for this business, and a way out.

export interface AuthorizedAppView {
  clientId: string;
  clientName: string;
  userId: string;
  userEmail: string;
  scopes: string[];
  environment: string;
  authorizedAt: string;
  lastUsed: string | null;
}

export function AuthorizedApps({ apps, currentUserId, isAdmin }: { apps: AuthorizedAppView[]; currentUserId: string; isAdmin: boolean }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [dialog, confirm] = useConfirm();
  async function revoke(a: AuthorizedAppView) {
    const ok = await confirm({
      title: `Revoke ${a.clientName}?`,
      body: `Its access and refresh tokens for ${a.userEmail} stop working at once; it must ask for access again to reconnect.`,
      confirmLabel: "Revoke access",
    });
    if (!ok) return;
    start(async () => {
      const r = await revokeAuthorizedAppAction(a.clientId, a.userId);
      setError(r.ok ? null : (r.error?.message ?? "Could not revoke."));
      router.refresh();
    });
  }
  return (
    <Card title="Authorized apps">
      {dialog}
      {error ? (
        <p role="alert" className="mb-2 text-sm text-red-600">
          {error}
        </p>
      ) : null}
      {apps.length === 0 ? (
        <EmptyState title="No authorized apps">Applications you allow through OAuth appear here.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {apps.map((a) => (
            <li
              key={`${a.clientId}-${a.userId}`}
              className="flex flex-wrap items-start justify-between gap-3 py-3"
              data-testid={`authorized-app-${a.clientName}`}
            >
              <div className="min-w-0 text-sm">
                <p className="font-medium">
                  {a.clientName}{" "}
                  <Badge tone={a.environment === "production" ? "warning" : "info"}>
                    {a.environment === "production" ? "live" : "test"} data
                  </Badge>
                </p>
                <p className="text-xs text-slate-500">
                  Authorized by {a.userEmail} on {new Date(a.authorizedAt).toLocaleDateString()} · last used{" "}
                  {a.lastUsed ? new Date(a.lastUsed).toLocaleString() : "never"}
                </p>
                <ul className="mt-1 list-disc pl-5 text-xs">
                  {a.scopes.map((s) => (
                    <li key={s}>{describeScope(s)}</li>
                  ))}
                </ul>
              </div>
              {a.userId === currentUserId || isAdmin ? (
                <Button variant="danger" onClick={() => revoke(a)} disabled={pending} aria-label={`Revoke ${a.clientName}`}>
                  Revoke
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
