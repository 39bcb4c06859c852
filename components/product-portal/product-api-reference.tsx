"use client";
import dynamic from "next/dynamic";
import "@scalar/api-reference-react/style.css";

// A product's API reference in its developer portal: Scalar renders the product's OpenAPI document, whose server
// is the product's gateway, with code examples in the app's `languages` only. Try-it sends the visitor's own key
// (entered in Scalar's authentication box); the portal never makes a key for it.
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

const CONTRAST_CSS = `
.light-mode { --scalar-color-2: #595959; --scalar-color-3: #666666; --scalar-color-accent: #0062b8; }
.dark-mode { --scalar-color-2: #b4b4b4; --scalar-color-3: #a0a0a0; --scalar-color-accent: #4cc0ff; }`;

export function ProductApiReference({
  documentUrl,
  serverUrl,
  languages,
  enableTryIt,
  showCodeExamples,
  darkMode,
}: {
  documentUrl: string;
  serverUrl: string;
  languages: string[];
  enableTryIt: boolean;
  showCodeExamples: boolean;
  darkMode: boolean;
}) {
  return (
    <div
      role="region"
      aria-label="API reference"
      className="overflow-hidden rounded-lg border border-(--app-border)"
      data-testid="api-reference"
    >
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
          } as never
        }
      />
    </div>
  );
}
