"use client";
import { useState } from "react";
import { Button } from "./primitives";

export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      variant="secondary"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          /* clipboard may be blocked; the value stays selectable */
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
      aria-live="polite"
    >
      {copied ? "Copied" : label}
    </Button>
  );
}
