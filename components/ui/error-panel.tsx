"use client";
import Link from "next/link";
import { useEffect } from "react";
import { Button } from "./primitives";

/** What a page shows when it failed to render: no stack trace, the digest to quote, a retry and a way out. */
export function ErrorPanel({
  error,
  reset,
  home,
}: {
  error: Error & { digest?: string };
  reset: () => void;
  home: { href: string; label: string };
}) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div role="alert" className="mx-auto max-w-lg py-12">
      <p className="text-sm font-semibold text-red-700 dark:text-red-300">Something went wrong</p>
      <h1 className="mt-2 text-2xl font-bold tracking-tight">This page could not be shown</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        Nothing you entered was lost on our side. Try again; if it keeps failing, tell us the reference below.
      </p>
      {error.digest ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
          Reference: <code>{error.digest}</code>
        </p>
      ) : null}
      <div className="mt-6 flex flex-wrap gap-3">
        <Button onClick={() => reset()}>Try again</Button>
        <Link
          href={home.href}
          className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium no-underline dark:border-slate-700"
        >
          {home.label}
        </Link>
      </div>
    </div>
  );
}
