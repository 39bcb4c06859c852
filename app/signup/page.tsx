import Link from "next/link";
import { SignUpFormView } from "@/components/portal/sign-up-form";

export const metadata = { title: "Sign up · Developer Platform" };

/** Only a path on this site: `?next=` must not send a new account elsewhere. */
const localPath = (next: string | undefined) =>
  next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/portal";

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const next = localPath((await searchParams).next);
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6 py-12">
      <h1 className="text-2xl font-bold">Create your account</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        You get a business and its default project right away, in test mode; create your first test key in the portal.
      </p>
      <SignUpFormView callbackUrl={next} />
      <p className="mt-6 text-sm">
        Already have an account?{" "}
        <Link href={next === "/portal" ? "/signin" : `/signin?callbackUrl=${encodeURIComponent(next)}`}>Sign in</Link>
      </p>
    </main>
  );
}
