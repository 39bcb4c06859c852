import Link from "next/link";
import { SignUpFormView } from "@/components/portal/sign-up-form";

export const metadata = { title: "Sign up · Developer Platform" };

export default function SignUpPage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6 py-12">
      <h1 className="text-2xl font-bold">Create your account</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        You get a business and its default project right away, in test mode; create your first test key in the portal.
      </p>
      <SignUpFormView />
      <p className="mt-6 text-sm">
        Already have an account? <Link href="/signin">Sign in</Link>
      </p>
    </main>
  );
}
