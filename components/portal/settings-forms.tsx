"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { addMemberAction, updateSettingsAction } from "@/app/portal/actions";
import { Badge, Button, Card, Field, Input, Select } from "@/components/ui/primitives";
import { formErrors, splitFormErrors, type FieldErrors } from "@/lib/portal/form-errors";

/** Submits without React's form-action reset, so what was typed stays when the server refuses it. */
const submit = (run: (form: HTMLFormElement) => void) => (e: React.FormEvent<HTMLFormElement>) => {
  e.preventDefault();
  run(e.currentTarget);
};

export function SettingsForm({
  initial,
  canEdit,
}: {
  initial: { businessName: string; projectName: string; retentionDays: number; quotaNotifyAt: string };
  canEdit: boolean;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);
  const shown = splitFormErrors(errors, ["businessName", "projectName", "retentionDays", "quotaNotifyAt"]);
  const err = (f: string) => shown.fields[f] ?? null;
  return (
    <Card title="Business and project">
      <form
        className="grid gap-4 md:grid-cols-2"
        noValidate
        onSubmit={submit((form) =>
          start(async () => {
            setSaved(false);
            const r = await updateSettingsAction(Object.fromEntries(new FormData(form)));
            if (!r.ok) return setErrors(formErrors(r.error ?? { message: "Could not save." }));
            setErrors({});
            setSaved(true);
            router.refresh();
          }),
        )}
      >
        <Field label="Business name" htmlFor="businessName" error={err("businessName")}>
          <Input
            id="businessName"
            name="businessName"
            defaultValue={initial.businessName}
            disabled={!canEdit}
            invalid={!!err("businessName")}
          />
        </Field>
        <Field label="Project name" htmlFor="projectName" error={err("projectName")}>
          <Input
            id="projectName"
            name="projectName"
            defaultValue={initial.projectName}
            disabled={!canEdit}
            invalid={!!err("projectName")}
          />
        </Field>
        <Field label="Keep request logs for (days)" htmlFor="retentionDays" error={err("retentionDays")}>
          <Input
            id="retentionDays"
            name="retentionDays"
            type="number"
            min={1}
            max={365}
            defaultValue={initial.retentionDays}
            disabled={!canEdit}
            invalid={!!err("retentionDays")}
          />
        </Field>
        <Field label="Quota alerts at (%)" htmlFor="quotaNotifyAt" hint="Comma-separated, e.g. 80, 95, 100." error={err("quotaNotifyAt")}>
          <Input
            id="quotaNotifyAt"
            name="quotaNotifyAt"
            defaultValue={initial.quotaNotifyAt}
            disabled={!canEdit}
            invalid={!!err("quotaNotifyAt")}
          />
        </Field>
        {shown.form ? (
          <p role="alert" className="text-sm text-red-600 md:col-span-2 dark:text-red-400">
            {shown.form}
          </p>
        ) : null}
        {canEdit ? (
          <div className="flex items-center gap-3 md:col-span-2">
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : "Save"}
            </Button>
            {saved ? (
              <span role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
                Saved.
              </span>
            ) : null}
          </div>
        ) : (
          <p className="text-sm text-slate-500 md:col-span-2">Only owners and admins can change these.</p>
        )}
      </form>
    </Card>
  );
}

export function TeamMembers({
  members,
  canEdit,
}: {
  members: { id: string; email: string; name: string | null; role: string }[];
  canEdit: boolean;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [errors, setErrors] = useState<FieldErrors>({});
  const shown = splitFormErrors(errors, ["email"]);
  return (
    <Card title="Team members">
      <ul className="divide-y divide-slate-100 dark:divide-slate-800">
        {members.map((m) => (
          <li key={m.id} className="flex items-center justify-between py-2 text-sm">
            <span>
              {m.name ? `${m.name} · ` : ""}
              {m.email}
            </span>
            <Badge>{m.role}</Badge>
          </li>
        ))}
      </ul>
      {canEdit ? (
        <form
          className="mt-4 grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end"
          noValidate
          onSubmit={submit((form) =>
            start(async () => {
              const r = await addMemberAction(Object.fromEntries(new FormData(form)));
              if (!r.ok) return setErrors(formErrors(r.error ?? { message: "Could not add." }));
              setErrors({});
              form.reset();
              router.refresh();
            }),
          )}
        >
          <Field label="E-mail" htmlFor="member-email" error={shown.fields.email}>
            <Input id="member-email" name="email" type="email" invalid={!!shown.fields.email} />
          </Field>
          <Field label="Role" htmlFor="member-role">
            <Select id="member-role" name="role" defaultValue="developer">
              {["admin", "developer", "viewer"].map((r) => (
                <option key={r}>{r}</option>
              ))}
            </Select>
          </Field>
          <Button type="submit" disabled={pending}>
            Add member
          </Button>
          {shown.form ? (
            <p role="alert" className="text-sm text-red-600 sm:col-span-3 dark:text-red-400">
              {shown.form}
            </p>
          ) : null}
        </form>
      ) : null}
    </Card>
  );
}
