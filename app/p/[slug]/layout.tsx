import Link from "next/link";
import type { ReactNode } from "react";
import { portalNavigation } from "@/lib/apps/product-portal";
import { shellStyle } from "@/components/apps/shell-theme";
import { PortalNav } from "@/components/product-portal/portal-nav";
import { SignOutButton } from "@/components/portal/sign-out-button";
import { portalFor } from "./load";
import { portalPaths, visitorFor } from "./visitor";

// /p/{slug}: a product's developer portal, drawn from its stored Developer app: the provider's name, the app's
// theme (preset, mode and custom colours as CSS variables on the root), its navigation and its views.

type Params = Promise<{ slug: string }>;

export async function generateMetadata({ params }: { params: Params }) {
  const { portal } = await portalFor((await params).slug);
  return { title: `${portal.app.name} · ${portal.providerName}`, description: portal.app.description };
}

export default async function ProductPortalLayout({ children, params }: { children: ReactNode; params: Params }) {
  const { portal } = await portalFor((await params).slug);
  const visitor = await visitorFor();
  const { app } = portal;
  return (
    <div
      data-product-portal={portal.slug}
      data-theme-mode={app.theme?.mode ?? "system"}
      style={shellStyle(app.theme)}
      className="flex min-h-screen flex-col bg-(--app-bg) text-(--app-fg)"
    >
      <a
        href="#portal-main"
        className="sr-only rounded-md bg-(--app-card) px-3 py-2 text-sm font-medium text-(--app-accent-strong) focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-10"
      >
        Skip to content
      </a>
      {portal.status === "draft" ? (
        <p role="status" className="bg-amber-100 px-4 py-2 text-center text-sm text-amber-950">
          Draft: only your business sees this portal until the app is published.
        </p>
      ) : null}
      {app.shell.header ? (
        <header className="border-b border-(--app-border) bg-(--app-card) px-4 py-4 md:px-8">
          <div className="flex flex-wrap items-center justify-between gap-4">
            <div className="min-w-0">
              <p className="text-xs font-semibold tracking-wide text-(--app-accent-strong) uppercase" data-testid="portal-provider">
                {portal.providerName}
              </p>
              <p className="text-xl font-bold tracking-tight break-words">
                <Link href={`/p/${portal.slug}`} className="text-(--app-fg) no-underline hover:no-underline">
                  {app.name}
                </Link>
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-3 text-sm">
              {visitor ? (
                <>
                  <span data-testid="portal-visitor" className="min-w-0 text-right">
                    <span className="block font-medium break-all">{visitor.user.name ?? visitor.user.email}</span>
                    {visitor.user.name ? <span className="block text-xs break-all text-(--app-muted)">{visitor.user.email}</span> : null}
                  </span>
                  <SignOutButton
                    callbackUrl={portalPaths(portal.slug).home}
                    className="text-(--app-accent-strong)! hover:bg-(--app-accent-soft)!"
                  />
                </>
              ) : (
                <Link href={portalPaths(portal.slug).signIn()} className="text-(--app-accent-strong)">
                  Sign in
                </Link>
              )}
            </div>
          </div>
          <div className="mt-3">
            <PortalNav items={portalNavigation(portal)} label={`${app.name} navigation`} />
          </div>
        </header>
      ) : (
        <div className="px-4 pt-4 md:px-8">
          <PortalNav items={portalNavigation(portal)} label={`${app.name} navigation`} />
        </div>
      )}
      <main id="portal-main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 focus:outline-none md:px-8">
        {children}
      </main>
      <footer className="border-t border-(--app-border) px-4 py-4 text-xs text-(--app-muted) md:px-8">
        {portal.providerName} · developer portal
      </footer>
    </div>
  );
}
