import Link from "next/link";

export const metadata = { title: "Page not found · Developer Platform" };

export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center px-6 py-12">
      <p className="text-sm font-semibold text-indigo-700 dark:text-indigo-300">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">Page not found</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        There is nothing at this address. It may have moved, or the link may be mistyped.
      </p>
      <nav aria-label="Where to go" className="mt-8 flex flex-wrap gap-3">
        <Link href="/portal" className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white no-underline hover:bg-indigo-500">
          Go to the portal
        </Link>
        <Link href="/docs" className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium no-underline dark:border-slate-700">
          Read the docs
        </Link>
        <Link href="/" className="rounded-md px-4 py-2 text-sm font-medium no-underline">
          Home
        </Link>
      </nav>
    </main>
  );
}
