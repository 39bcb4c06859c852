"use server";
import { db } from "@/lib/db/client";
import { SignUpForm, fieldErrors, type FieldErrors } from "@/lib/portal/forms";
import { createUserWithBusiness } from "@/lib/portal/sign-up";

export async function signUpAction(_prev: unknown, form: FormData): Promise<{ ok: boolean; errors: FieldErrors; email?: string }> {
  const parsed = SignUpForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  const exists = await db.user.findUnique({ where: { email: parsed.data.email } });
  if (exists) return { ok: false, errors: { email: "An account with this e-mail already exists. Sign in instead." } };
  try {
    await createUserWithBusiness(parsed.data);
  } catch (e) {
    console.error("sign-up failed", e);
    return { ok: false, errors: { form: "We could not create your account just now. Try again in a moment." } };
  }
  return { ok: true, errors: {}, email: parsed.data.email };
}
