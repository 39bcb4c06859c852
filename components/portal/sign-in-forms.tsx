"use client";
import { useState } from "react";
import { signIn } from "next-auth/react";
import { z } from "zod";
import { Button, Field, Input } from "@/components/ui/primitives";

const Email = z.string().trim().pipe(z.email("Enter a valid e-mail address."));

/**
 * `callbackUrl`: where a signed-in user lands. `checkEmailHref`: the page that says "check your e-mail" after a link
 * was sent (next-auth's own is /signin?check=email; a product portal keeps the visitor on its own pages).
 */
export function SignInForms({
  callbackUrl,
  oauth,
  checkEmailHref,
}: {
  callbackUrl: string;
  oauth: { github: boolean; google: boolean };
  checkEmailHref?: string;
}) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);

  async function withPassword(form: FormData) {
    const email = Email.safeParse(form.get("email"));
    const password = String(form.get("password") ?? "");
    const next: Record<string, string> = {};
    if (!email.success) next.email = email.error.issues[0].message;
    if (!password) next.password = "Enter your password.";
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy("password");
    const r = await signIn("credentials", { email: email.data, password, redirect: false, callbackUrl });
    setBusy(null);
    if (r?.error) setErrors({ password: "That e-mail and password do not match an account." });
    else window.location.href = r?.url ?? callbackUrl;
  }

  async function withLink(form: FormData) {
    const email = Email.safeParse(form.get("magicEmail"));
    if (!email.success) return setErrors({ magicEmail: email.error.issues[0].message });
    setErrors({});
    setBusy("link");
    if (!checkEmailHref) return void (await signIn("email", { email: email.data, callbackUrl }));
    const r = await signIn("email", { email: email.data, callbackUrl, redirect: false });
    setBusy(null);
    if (r?.error) setErrors({ magicEmail: "We could not send a sign-in link just now. Try again in a moment." });
    else window.location.href = checkEmailHref;
  }

  return (
    <div className="mt-6 space-y-8">
      <form action={withPassword} className="space-y-4" noValidate aria-label="Sign in with password">
        <Field label="E-mail" htmlFor="email" error={errors.email}>
          <Input id="email" name="email" type="email" autoComplete="email" invalid={!!errors.email} />
        </Field>
        <Field label="Password" htmlFor="password" error={errors.password}>
          <Input id="password" name="password" type="password" autoComplete="current-password" invalid={!!errors.password} />
        </Field>
        <Button type="submit" className="w-full" disabled={busy !== null}>
          {busy === "password" ? "Signing in…" : "Sign in"}
        </Button>
      </form>
      <div className="relative text-center text-xs uppercase text-slate-500">
        <span className="bg-white px-2 dark:bg-slate-950">or get a link by e-mail</span>
      </div>
      <form action={withLink} className="space-y-4" noValidate aria-label="Sign in with an e-mail link">
        <Field label="E-mail for a sign-in link" htmlFor="magicEmail" error={errors.magicEmail}>
          <Input id="magicEmail" name="magicEmail" type="email" autoComplete="email" invalid={!!errors.magicEmail} />
        </Field>
        <Button type="submit" variant="secondary" className="w-full" disabled={busy !== null}>
          {busy === "link" ? "Sending…" : "Email me a sign-in link"}
        </Button>
      </form>
      {oauth.github || oauth.google ? (
        <div className="space-y-2">
          {oauth.github ? (
            <Button variant="secondary" className="w-full" onClick={() => signIn("github", { callbackUrl })}>
              Continue with GitHub
            </Button>
          ) : null}
          {oauth.google ? (
            <Button variant="secondary" className="w-full" onClick={() => signIn("google", { callbackUrl })}>
              Continue with Google
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
