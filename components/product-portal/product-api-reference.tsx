"use client";
import dynamic from "next/dynamic";
import Link from "next/link";
import "@scalar/api-reference-react/style.css";
import { CONTRAST_CSS, useNamedScalarButtons } from "@/components/portal/api-reference";
import { useTryItKey, type TryItAccess } from "./try-it-key";

// A product's API reference in its developer portal: Scalar renders the product's OpenAPI document, whose server
// is the product's gateway, with code examples in the app's `languages` only. For a signed-in visitor subscribed in
// test mode, try-it sends a one-hour TEST key limited to this product (made once, kept for the browser session,
// in no key list: lib/keys/product-keys.ts); signed out or not subscribed, a note says how to get there.
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => <p className="p-4 text-sm">Loading the API reference…</p>,
});

// Scalar's code-example targets; `languages` names some of them (shell, node, python, go, ruby, …).
const TARGETS = [
  "c",
  "clojure",
  "csharp",
  "dart",
  "fsharp",
  "go",
  "http",
  "java",
  "js",
  "julia",
  "kotlin",
  "node",
  "objc",
  "ocaml",
  "php",
  "powershell",
  "python",
  "r",
  "ruby",
  "rust",
  "shell",
  "swift",
];
const ALIASES: Record<string, string> = {
  curl: "shell",
  bash: "shell",
  javascript: "js",
  typescript: "node",
  csharp: "csharp",
  "c#": "csharp",
};

/** Scalar's hiddenClients: every target not among the languages (all shown when none is known). */
export function hiddenTargets(languages: string[]): Record<string, boolean> {
  const shown = new Set(languages.map((l) => ALIASES[l.toLowerCase()] ?? l.toLowerCase()).filter((l) => TARGETS.includes(l)));
  if (!shown.size) return {};
  return Object.fromEntries(TARGETS.filter((t) => !shown.has(t)).map((t) => [t, true]));
}

export type { TryItAccess } from "./try-it-key";

function TryItNote({ access, token, error }: { access: TryItAccess; token: string | null; error: string | null }) {
  const note = "mb-3 rounded-md border border-(--app-border) bg-(--app-accent-soft) p-3 text-sm";
  if (access.state === "signed-out")
    return (
      <p className={note} data-testid="try-it-note">
        <Link href={access.signInHref} className="font-semibold text-(--app-accent-strong)">
          Sign in
        </Link>{" "}
        to try requests from here with a test key of your own.
      </p>
    );
  if (access.state === "not-subscribed")
    return (
      <p className={note} data-testid="try-it-note">
        Try-it calls {access.productName} with a test key of your subscription.{" "}
        {access.subscribeHref ? (
          <Link href={access.subscribeHref} className="font-semibold text-(--app-accent-strong)">
            Subscribe in test mode
          </Link>
        ) : (
          "Subscribe in test mode"
        )}{" "}
        to try requests from here.
      </p>
    );
  if (error)
    return (
      <p role="alert" className={note} data-testid="try-it-note">
        {error}
      </p>
    );
  return token ? (
    <p className="mb-3 text-sm text-(--app-muted)" data-testid="try-it-key">
      Try-it uses a test key limited to this API, valid for one hour: <code>{token.slice(0, 12)}…</code>
    </p>
  ) : null;
}

export function ProductApiReference({
  documentUrl,
  serverUrl,
  languages,
  enableTryIt,
  showCodeExamples,
  darkMode,
  access,
}: {
  documentUrl: string;
  serverUrl: string;
  languages: string[];
  enableTryIt: boolean;
  showCodeExamples: boolean;
  darkMode: boolean;
  access: TryItAccess;
}) {
  const { token, error } = useTryItKey(access, enableTryIt);
  const waiting = enableTryIt && access.state === "ready" && token === null && error === null;
  useNamedScalarButtons();
  return (
    <div>
      {enableTryIt ? <TryItNote access={access} token={token} error={error} /> : null}
      <div
        role="region"
        aria-label="API reference"
        className="overflow-hidden rounded-lg border border-(--app-border)"
        data-testid="api-reference"
      >
        {waiting ? (
          <p className="p-4 text-sm">Preparing a test key for try-it…</p>
        ) : (
          <ApiReferenceReact
            configuration={
              {
                url: documentUrl,
                withDefaultFonts: false,
                showDeveloperTools: "never",
                agent: { disabled: true },
                mcp: { disabled: true },
                hideClientButton: !enableTryIt,
                hiddenClients: showCodeExamples ? hiddenTargets(languages) : true,
                servers: [{ url: serverUrl, description: "Gateway" }],
                forceDarkModeState: darkMode ? "dark" : "light",
                hideDarkModeToggle: true,
                customCss: CONTRAST_CSS,
                defaultOpenAllTags: false,
                ...(token ? { authentication: { preferredSecurityScheme: "bearerAuth", securitySchemes: { bearerAuth: { token } } } } : {}),
              } as never
            }
          />
        )}
      </div>
    </div>
  );
}
