"use client";
import { useState, useTransition } from "react";
import { revealWebhookSecretAction } from "@/app/portal/webhook-actions";
import { Button } from "@/components/ui/primitives";
import { CopyButton } from "@/components/ui/copy-button";

// An endpoint's signing secret: masked until "Reveal" (Svix's portal), and, after a rotation, until when the
// previous secret still signs beside the new one.

export function WebhookSecret({
  webhookId,
  masked,
  graceUntil,
  canWrite,
}: {
  webhookId: string;
  masked: string;
  graceUntil: string | null;
  canWrite: boolean;
}) {
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <div className="mt-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-slate-600 dark:text-slate-400">Signing secret</span>
        <code data-testid="endpoint-secret" className="break-all rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800">
          {secret ?? masked}
        </code>
        {secret ? (
          <>
            <CopyButton value={secret} />
            <Button variant="ghost" onClick={() => setSecret(null)}>
              Hide
            </Button>
          </>
        ) : canWrite ? (
          <Button
            variant="ghost"
            disabled={pending}
            onClick={() =>
              start(async () => {
                const r = await revealWebhookSecretAction(webhookId);
                if (r.ok) {
                  setSecret(r.data!.secret);
                  setError(null);
                } else setError(r.error?.message ?? "The secret could not be shown.");
              })
            }
          >
            Reveal
          </Button>
        ) : null}
      </div>
      {graceUntil ? (
        <p className="mt-1 text-xs text-amber-800 dark:text-amber-300" data-testid="secret-grace">
          Rotated: the previous secret also signs until <time dateTime={graceUntil}>{new Date(graceUntil).toLocaleString()}</time> (24-hour
          grace period), so your receiver can switch without missing a message.
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
