"use client";
import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import "@scalar/api-reference-react/style.css";
import { issueTryItKeyAction } from "@/app/portal/actions";

// Scalar renders the OpenAPI document with a try-it console. It runs in the browser only (no SSR) and loads no
// outside fonts. Try-it calls this deployment with a one-hour test key made for this browser session, which no key list shows
// (lib/keys/try-it-key.ts).
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => <p className="p-4 text-sm text-slate-500">Loading the API reference…</p>,
});

const STORE = "platform.tryItKey";

// Scalar's themes have grey text and method colours below 4.5:1 on their backgrounds; these are the same hues,
// darker in light mode and lighter in dark mode.
export const CONTRAST_CSS = `
.light-mode {
  --scalar-color-2: #595959;
  --scalar-color-3: #666666;
  --scalar-color-accent: #0062b8;
  --scalar-color-blue: #005fa3;
  --scalar-color-green: #05704a;
  --scalar-color-orange: #a34700;
  --scalar-color-red: #b91c1c;
  --scalar-color-purple: #6d35b5;
  --scalar-color-yellow: #7a5c00;
}
.dark-mode {
  --scalar-color-2: #b4b4b4;
  --scalar-color-3: #a0a0a0;
  --scalar-color-accent: #4cc0ff;
  --scalar-color-blue: #6cbef0;
  --scalar-color-green: #4fd49c;
  --scalar-color-orange: #ffa45c;
  --scalar-color-red: #ff8080;
  --scalar-color-purple: #c9a3ff;
  --scalar-color-yellow: #f0d050;
}`;

/** Whether a button has an accessible name (text, a non-empty label, labelling elements with text, or a title). */
function hasName(button: HTMLButtonElement): boolean {
  // innerText, not textContent: text that is not displayed (display: none) gives no name.
  if (button.innerText.trim() || button.getAttribute("aria-label")?.trim() || button.title.trim()) return true;
  const ids = button.getAttribute("aria-labelledby")?.split(/\s+/).filter(Boolean) ?? [];
  if (ids.some((id) => document.getElementById(id)?.textContent?.trim())) return true;
  return [...button.querySelectorAll("img[alt], svg[aria-label], [role=img][aria-label]")].some(
    (el) => (el.getAttribute("alt") ?? el.getAttribute("aria-label") ?? "").trim() !== "",
  );
}

/**
 * Scalar leaves a few icon-only buttons (collapsible sections, some in its dialogs outside our box) without a
 * name; screen readers then announce just "button". Each gets one from the section it opens, or a plain one.
 */
export function nameUnlabelledButtons() {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[class*="scalar"] button, button[aria-controls^="scalar-"]')) {
    // Not displayed (a closed section): judged once it shows, so visible text is never overridden by a label.
    if (!button.getClientRects().length || hasName(button)) continue;
    const controlled = button.getAttribute("aria-controls");
    const target = controlled ? document.getElementById(controlled) : null;
    const heading = target?.querySelector("h1, h2, h3, h4, h5, h6")?.textContent?.trim();
    const label = button.className.includes("copy-button")
      ? "Copy to clipboard"
      : heading
        ? `Show or hide ${heading}`
        : controlled
          ? "Show or hide details"
          : "More options";
    button.setAttribute("aria-label", label);
  }
}

/** Names Scalar's unlabelled buttons now and whenever it redraws (at most once a frame), for screen readers. */
export function useNamedScalarButtons(): void {
  useEffect(() => {
    nameUnlabelledButtons();
    // Scalar changes the page often: look again at most once a frame.
    let frame = 0;
    const observer = new MutationObserver(() => {
      if (!frame)
        frame = requestAnimationFrame(() => {
          frame = 0;
          nameUnlabelledButtons();
        });
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, []);
}

export function ApiReference({ specUrl, enableTryIt, environment }: { specUrl: string; enableTryIt: boolean; environment: string }) {
  const [token, setToken] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    if (!enableTryIt) return;
    // Settled from browser-only state (sessionStorage) after mount, so the effect is the place for it.
    if (environment !== "test") {
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setNote("Switch to test data to try requests from here with a test key.");
      return;
    }
    const saved = JSON.parse(sessionStorage.getItem(STORE) ?? "null") as { key: string; expiresAt: string } | null;
    if (saved && Date.parse(saved.expiresAt) - Date.now() > 5 * 60_000) {
      setToken(saved.key);
      return;
    }
    void issueTryItKeyAction().then((r) => {
      if (r.ok && r.data) {
        sessionStorage.setItem(STORE, JSON.stringify(r.data));
        setToken(r.data.key);
      } else setNote(r.error?.message ?? "Could not make a test key for try-it.");
    });
  }, [enableTryIt, environment]);
  const ready = !enableTryIt || token !== null || note !== null;
  useNamedScalarButtons();
  return (
    <div>
      {note ? (
        <p role="status" className="mb-3 rounded bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {note}
        </p>
      ) : null}
      {token ? (
        <p className="mb-3 text-xs text-slate-500" data-testid="try-it-key">
          Try-it uses a test key valid for one hour: <code>{token.slice(0, 12)}…</code>
        </p>
      ) : null}
      {/* Scalar's own sidebar (a group per resource, sticky beside the reference) is the way around it. A box that
          scrolled on its own would be shorter, but Scalar renders operations as the window scrolls, so it stays on
          the page. */}
      <div
        role="region"
        aria-label="API reference"
        className="overflow-hidden rounded-lg border border-slate-200 dark:border-slate-800"
        data-testid="api-reference"
      >
        {ready ? (
          <ApiReferenceReact
            configuration={
              {
                url: specUrl,
                withDefaultFonts: false,
                // Offline and self-contained: no AI agent or MCP generator that would send the document elsewhere.
                showDeveloperTools: "never",
                agent: { disabled: true },
                mcp: { disabled: true },
                hideClientButton: !enableTryIt,
                // Only the first tag (products) starts open; the sidebar opens the others.
                defaultOpenFirstTag: true,
                defaultOpenAllTags: false,
                customCss: CONTRAST_CSS,
                servers: [{ url: typeof window === "undefined" ? "" : window.location.origin }],
                ...(token ? { authentication: { preferredSecurityScheme: "bearerAuth", securitySchemes: { bearerAuth: { token } } } } : {}),
              } as never
            }
          />
        ) : (
          <p className="p-4 text-sm text-slate-500">Preparing a test key for try-it…</p>
        )}
      </div>
    </div>
  );
}
