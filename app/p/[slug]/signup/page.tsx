import Link from "next/link";
import { redirect } from "next/navigation";
import { SignUpFormView } from "@/components/portal/sign-up-form";
import { portalFor } from "../load";
import { insidePortal, portalPaths, visitorFor } from "../visitor";

// /p/{slug}/signup?next=…: the platform's sign-up (a business, its default project, the visitor as owner) inside the
// product's portal; the new account is signed in and sent on to `next`, a page of this portal (the plan's
// subscription when it came from "Get started").

type Params = Promise<{ slug: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export const metadata = { title: "Create your account" };

export default async function PortalSignUp({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { portal } = await portalFor((await params).slug);
  const next = insidePortal(portal.slug, (await searchParams).next);
  if (await visitorFor()) redirect(next);
  return (
    <div className="mx-auto max-w-md">
      <h1 className="text-3xl font-bold tracking-tight">Create your account</h1>
      <p className="mt-2 text-(--app-muted)">
        One account for {portal.app.name}: you get your own project in test mode, then choose a plan and make a key.
      </p>
      <SignUpFormView callbackUrl={next} />
      <p className="mt-6 text-sm">
        Already have an account?{" "}
        <Link href={portalPaths(portal.slug).signIn(next)} className="text-(--app-accent-strong)">
          Sign in
        </Link>
      </p>
    </div>
  );
}
