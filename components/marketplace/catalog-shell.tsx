import Link from "next/link";
import type { ReactNode } from "react";

// The public catalogue's frame: no sign-in needed; a signed-in visitor is offered the portal instead.

export function CatalogShell({ signedIn, children }: { signedIn: boolean; children: ReactNode }) {
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="flex items-center gap-4">
            <Link href="/" className="font-bold text-slate-900 no-underline dark:text-white">
              Developer Platform
            </Link>
            <Link href="/catalog" className="text-sm">
              API catalogue
            </Link>
          </div>
          <nav aria-label="Account" className="flex items-center gap-3 text-sm">
            {signedIn ? (
              <Link href="/portal">Portal</Link>
            ) : (
              <>
                <Link href="/signin">Sign in</Link>
                <Link
                  href="/signup"
                  className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white no-underline hover:bg-indigo-500"
                >
                  Sign up
                </Link>
              </>
            )}
          </nav>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-8">
        {children}
      </main>
    </div>
  );
}
