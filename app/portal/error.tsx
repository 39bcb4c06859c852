"use client";
import { ErrorPanel } from "@/components/ui/error-panel";

// Inside the portal's layout: the header, test-mode band and navigation stay, only the view is replaced.
export default function PortalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorPanel error={error} reset={reset} home={{ href: "/portal", label: "Back to the dashboard" }} />;
}
