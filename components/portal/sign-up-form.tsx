"use client";
import { startTransition, useActionState, useEffect, useRef } from "react";
import { signIn } from "next-auth/react";
import { signUpAction } from "@/app/signup/actions";
import { Button, Field, Input } from "@/components/ui/primitives";

/** `callbackUrl`: where the new account lands (a product portal's "Get started" passes its subscribe page). */
export function SignUpFormView({ callbackUrl = "/portal" }: { callbackUrl?: string } = {}) {
  const [state, action, pending] = useActionState(signUpAction, { ok: false, errors: {} });
  // Submitted from onSubmit, not as the form's action: React would clear the fields after an action, losing what
  // was typed when the server refuses it. The password is kept for the sign-in that follows.
  const password = useRef("");
  useEffect(() => {
    if (state.ok && state.email) void signIn("credentials", { email: state.email, password: password.current, callbackUrl });
  }, [state, callbackUrl]);
  const e = state.errors;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        password.current = String(form.get("password") ?? "");
        startTransition(() => action(form));
      }}
      className="mt-6 space-y-4"
      noValidate
    >
      <Field label="Your name" htmlFor="name" error={e.name}>
        <Input id="name" name="name" autoComplete="name" required invalid={!!e.name} />
      </Field>
      <Field label="Business name" htmlFor="businessName" error={e.businessName}>
        <Input id="businessName" name="businessName" required invalid={!!e.businessName} />
      </Field>
      <Field label="E-mail" htmlFor="email" error={e.email}>
        <Input id="email" name="email" type="email" autoComplete="email" required invalid={!!e.email} />
      </Field>
      <Field label="Password" htmlFor="password" error={e.password} hint="At least 8 characters.">
        <Input id="password" name="password" type="password" autoComplete="new-password" required invalid={!!e.password} />
      </Field>
      {e.form ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {e.form}
        </p>
      ) : null}
      <Button type="submit" disabled={pending || state.ok} className="w-full">
        {state.ok ? "Signing you in…" : pending ? "Creating…" : "Create account"}
      </Button>
    </form>
  );
}
