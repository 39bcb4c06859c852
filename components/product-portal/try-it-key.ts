"use client";
import { useEffect, useState } from "react";
import { issueProductTryItKeyAction } from "@/app/portal/marketplace-actions";

// The product portal's try-it key, shared by the docs' console and the AI agents page's try-a-tool form: a one-hour
// TEST key limited to the product (issueProductTryItKeyAction), kept for the browser session.

/** Who may try requests from here: the visitor's state, as the page found it. */
export type TryItAccess =
  | { state: "signed-out"; signInHref: string }
  | { state: "not-subscribed"; subscribeHref: string | null; productName: string }
  | { state: "ready"; productId: string };

const storeKey = (productId: string) => `platform.productTryIt.${productId}`;

/** The try-it key of this product for this browser session: the stored one while it has 5 minutes left, else a new one. */
export function useTryItKey(access: TryItAccess, enabled: boolean) {
  const [token, setToken] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const productId = access.state === "ready" ? access.productId : null;
  useEffect(() => {
    if (!enabled || !productId) return;
    // Read from browser-only state (sessionStorage) after mount, so the effect is the place for it.
    const saved = JSON.parse(sessionStorage.getItem(storeKey(productId)) ?? "null") as { key: string; expiresAt: string } | null;
    if (saved && Date.parse(saved.expiresAt) - Date.now() > 5 * 60_000) {
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setToken(saved.key);
      return;
    }
    void issueProductTryItKeyAction(productId).then((r) => {
      if (r.ok && r.data) {
        sessionStorage.setItem(storeKey(productId), JSON.stringify(r.data));
        setToken(r.data.key);
      } else setError(r.error?.message ?? "Could not make a test key for try-it.");
    });
  }, [enabled, productId]);
  return { token, error };
}
