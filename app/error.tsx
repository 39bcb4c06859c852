"use client";
import { ErrorPanel } from "@/components/ui/error-panel";

export default function RootError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center px-6">
      <ErrorPanel error={error} reset={reset} home={{ href: "/", label: "Home" }} />
    </main>
  );
}
