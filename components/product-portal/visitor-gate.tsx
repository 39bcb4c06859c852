import Link from "next/link";
import type { ReactNode } from "react";
import { EnvironmentSwitch } from "@/components/portal/environment-switch";

// What a product portal's own views show around their data: the title with the test/live switch (the console's,
// so both show the same environment), and in place of the data a clear way on for a visitor who is signed out
// (sign in inside this portal) or has no subscription yet (subscribe inside this portal).

export const signInHref = (slug: string, path: string) => `/p/${slug}/signin?callbackUrl=${encodeURIComponent(path)}`;

export function ViewHeader({ title, children, environment }: { title: string; children?: ReactNode; environment?: "test" | "production" }) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        {children ? <div className="mt-2 max-w-3xl text-(--app-muted)">{children}</div> : null}
      </div>
      {environment ? <EnvironmentSwitch environment={environment} id="portal-test-mode" /> : null}
    </div>
  );
}

function Notice({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-(--app-border) bg-(--app-card) p-6" data-testid={testId}>
      {children}
    </div>
  );
}

export function SignInToSee({ slug, path, what }: { slug: string; path: string; what: string }) {
  return (
    <Notice testId="portal-sign-in-needed">
      <p className="font-semibold">Sign in to see {what}.</p>
      <p className="mt-3">
        <Link href={signInHref(slug, path)} className="font-semibold text-(--app-accent-strong)">
          Sign in to see {what}
        </Link>
      </p>
    </Notice>
  );
}

export function SubscribeToSee({ slug, what, products }: { slug: string; what: string; products: string }) {
  return (
    <Notice testId="portal-subscribe-needed">
      <p className="font-semibold">
        You have no subscription to {products} in this environment yet, so there are no {what} to show.
      </p>
      <p className="mt-1 text-sm text-(--app-muted)">
        Test and live subscriptions are separate: the switch above changes which one you see.
      </p>
      <p className="mt-3">
        <Link href={`/p/${slug}/subscribe`} className="font-semibold text-(--app-accent-strong)">
          Subscribe to {products}
        </Link>
      </p>
    </Notice>
  );
}
