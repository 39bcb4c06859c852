import Link from "next/link";
import { redirect } from "next/navigation";
import { SignInForms } from "@/components/portal/sign-in-forms";
import { oauthProviders } from "@/lib/portal/auth-options";
import { portalFor } from "../load";
import { insidePortal, portalPaths, visitorFor } from "../visitor";

// /p/{slug}/signin?callbackUrl=…: the platform's sign-in (password, e-mail link, GitHub/Google when configured) inside
// the product's portal, coming back to the page of this portal the visitor was on.

type Params = Promise<{ slug: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export const metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  CredentialsSignin: "That e-mail and password do not match an account.",
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  OAuthAccountNotLinked: "This e-mail already signs in another way. Use that method.",
};

export default async function PortalSignIn({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { portal } = await portalFor((await params).slug);
  const query = await searchParams;
  const back = insidePortal(portal.slug, query.callbackUrl);
  if (await visitorFor()) redirect(back);
  const paths = portalPaths(portal.slug);
  const error = typeof query.error === "string" ? query.error : null;
  return (
    <div className="mx-auto max-w-md">
      <h1 className="text-3xl font-bold tracking-tight">Sign in</h1>
      <p className="mt-2 text-(--app-muted)">With your account of the platform that runs {portal.app.name}.</p>
      {query.check === "email" ? (
        <p role="status" className="mt-4 rounded-md border border-(--app-border) bg-(--app-accent-soft) p-3 text-sm">
          Check your e-mail: we sent you a sign-in link. It brings you back here.
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-4 rounded-md border border-red-300 p-3 text-sm text-red-800 dark:text-red-200">
          {ERRORS[error] ?? "Sign-in failed. Try again."}
        </p>
      ) : null}
      <SignInForms
        callbackUrl={back}
        oauth={oauthProviders()}
        checkEmailHref={`${paths.home}/signin?check=email&callbackUrl=${encodeURIComponent(back)}`}
      />
      <p className="mt-6 text-sm">
        New here?{" "}
        <Link href={paths.signUp(back)} className="text-(--app-accent-strong)">
          Create an account
        </Link>
      </p>
    </div>
  );
}
