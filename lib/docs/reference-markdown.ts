import type { ErrorDoc } from "@/lib/http/error-catalog";
import type { VersionRecord } from "@/lib/versions/registry";
import { guideHref, type Guide } from "./guides";
import type { ReferencePage } from "./llms-txt";
import { mdBlocks, mdTable } from "./markdown-text";

// The Markdown twins of the /docs pages that are drawn from data rather than from a docs/*.md file: the route
// table (/docs), the error catalogue (/docs/errors), the guides' index and a version's migration notes. Each takes
// the same data its page renders, so a route or error code added to the table shows up in both.

/** The /docs pages beside the guides, in the order llms.txt lists them; each has a twin at `{path}.md`. */
export const REFERENCE_PAGES: readonly ReferencePage[] = [
  { path: "/docs", title: "API reference", summary: "every /v1 route with what it does and the scope it needs" },
  { path: "/docs/errors", title: "Errors", summary: "every error code: its status, what it means, what to do" },
  { path: "/docs/gateway", title: "Gateway", summary: "calling a product through /gw/{slug}: checks, signed headers, metering" },
  { path: "/docs/oauth", title: "OAuth 2.0", summary: "acting for a user's business with access tokens" },
  { path: "/docs/webhooks", title: "Webhooks", summary: "receiving signed events: the request, signatures, retries" },
];

/** The envelope every error answers with, as both the errors page and its twin state it. */
export const ERROR_ENVELOPE = `{ "error": { type, code, message, field?, suggestion?, documentation }, "meta": { timestamp, requestId } }`;

/** What /docs shows of a route (lib/http/route.ts's RouteSpec has more). */
export interface RouteLine {
  method: string;
  path: string;
  summary: string;
  tag: string;
  auth?: "api_key" | "none";
  scope?: string;
}

export const routeScope = (r: RouteLine) => (r.auth === "none" ? "public" : (r.scope ?? ""));

/** /docs.md: the route table grouped by tag, after the guides. */
export function routesMarkdown(routes: readonly RouteLine[], guides: readonly Guide[]): string {
  const tags = [...new Set(routes.map((r) => r.tag))];
  return mdBlocks([
    "# API reference",
    "Authenticate with `Authorization: Bearer sk_test_…`. The machine-readable reference is the OpenAPI document at " +
      "[/v1/openapi.json](/v1/openapi.json); every error code is explained under [Errors](/docs/errors.md). Third-party " +
      "applications act for a user's business with OAuth 2.0 access tokens instead: see [OAuth](/docs/oauth.md).",
    "## Guides",
    guidesList(guides),
    ...tags.flatMap((tag) => [
      `## ${tag}`,
      mdTable(
        ["Method", "Path", "What it does", "Scope"],
        routes.filter((r) => r.tag === tag).map((r) => [r.method, `\`${r.path}\``, r.summary, routeScope(r) ? `\`${routeScope(r)}\`` : ""]),
      ),
    ]),
  ]);
}

const guidesList = (guides: readonly Guide[]) => guides.map((g) => `- [${g.title}](${guideHref(g.slug)}.md): ${g.summary}`).join("\n");

/** /docs/guides.md: the guides' index. */
export const guidesIndexMarkdown = (guides: readonly Guide[]) =>
  mdBlocks([
    "# Guides",
    "Each guide stands on its own, for providers, consumers or operators. The [API reference](/docs.md) lists every route.",
    guidesList(guides),
  ]);

/** /docs/errors.md: one section per code, its heading the code (the page's anchor). */
export const errorsMarkdown = (catalog: readonly ErrorDoc[]) =>
  mdBlocks([
    "# Errors",
    `Every error has the same envelope: \`${ERROR_ENVELOPE}\`. The \`documentation\` link of an error lands on its entry below.`,
    ...catalog.map((e) => `## ${e.code}\n\n${e.status} · ${e.type}\n\n${e.meaning}\n\nWhat to do: ${e.fix}`),
  ]);

/** /docs/migrations/{version}.md */
export const migrationMarkdown = (record: VersionRecord) =>
  mdBlocks([
    `# API ${record.version}`,
    `Status: ${record.status}; released ${record.releaseDate}${record.sunsetDate ? `; sunset ${record.sunsetDate}` : ""}.`,
    "## Changelog",
    record.changelog.map((c) => `- ${c}`).join("\n"),
    record.replacement
      ? `Move to \`/${record.replacement}\`: change the path prefix; see the changelog of ${record.replacement} for breaking changes.`
      : null,
  ]);
