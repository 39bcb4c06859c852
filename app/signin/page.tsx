import Link from "next/link";
import { SignInForms } from "@/components/portal/sign-in-forms";
import { oauthProviders } from "@/lib/portal/auth-options";

export const metadata = { title: "Sign in · Developer Platform" };

const ERRORS: Record<string, string> = {
  CredentialsSignin: "That e-mail and password do not match an account.",
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  OAuthAccountNotLinked: "This e-mail already signs in another way. Use that method.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const p = await searchParams;
  const callbackUrl = p.callbackUrl?.startsWith("/") ? p.callbackUrl : "/portal";
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6 py-12">
      <h1 className="text-2xl font-bold">Sign in</h1>
      {p.check === "email" ? (
        <p role="status" className="mt-4 rounded-md bg-indigo-50 p-3 text-sm text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100">
          Check your e-mail: we sent you a sign-in link.
        </p>
      ) : null}
      {p.error ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {ERRORS[p.error] ?? "Sign-in failed. Try again."}
        </p>
      ) : null}
      <SignInForms callbackUrl={callbackUrl} oauth={oauthProviders()} />
      <p className="mt-6 text-sm">
        New here? <Link href="/signup">Create an account</Link>
      </p>
    </main>
  );
}
