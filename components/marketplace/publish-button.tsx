"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { setVisibilityAction } from "@/app/portal/marketplace-actions";
import { Button } from "@/components/ui/primitives";

// Publish (into every account's catalogue) or unpublish. When the API refuses (no active price yet, an inactive
// product) its reason is shown as it says it.

export function PublishButton({ productId, visibility }: { productId: string; visibility: "public" | "private" }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const next = visibility === "public" ? "private" : "public";

  function toggle() {
    start(async () => {
      const r = await setVisibilityAction(productId, next);
      if (!r.ok) return setError(r.error?.message ?? "Could not change the product's visibility.");
      setError(null);
      router.refresh();
    });
  }

  return (
    <div className="space-y-2">
      <Button variant={next === "public" ? "primary" : "secondary"} onClick={toggle} disabled={pending}>
        {pending ? "Working…" : next === "public" ? "Publish" : "Unpublish"}
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400" data-testid="publish-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
