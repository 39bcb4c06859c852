"use client";
import { useActionState, useEffect, useRef } from "react";
import { signIn } from "next-auth/react";
import { signUpAction } from "@/app/signup/actions";
import { Button, Field, Input } from "@/components/ui/primitives";

export function SignUpFormView() {
  const [state, action, pending] = useActionState(signUpAction, { ok: false, errors: {} });
  // React resets a form after its action runs, so the password is kept from the submit event for the sign-in.
  const password = useRef("");
  useEffect(() => {
    if (state.ok && state.email) void signIn("credentials", { email: state.email, password: password.current, callbackUrl: "/portal" });
  }, [state]);
  const e = state.errors;
  return (
    <form
      action={action}
      onSubmit={(e) => {
        password.current = (e.currentTarget.elements.namedItem("password") as HTMLInputElement).value;
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
      <Button type="submit" disabled={pending || state.ok} className="w-full">
        {state.ok ? "Signing you in…" : pending ? "Creating…" : "Create account"}
      </Button>
    </form>
  );
}
