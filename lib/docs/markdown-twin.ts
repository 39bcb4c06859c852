import { ERROR_CATALOG } from "@/lib/http/error-catalog";
import { versionRegistry } from "@/lib/versions/registry";
import { guideSource } from "./guide-source";
import { GUIDES } from "./guides";
import { errorsMarkdown, guidesIndexMarkdown, migrationMarkdown, routesMarkdown, type RouteLine } from "./reference-markdown";

// Which Markdown answers `/docs/….md`: the page's path without `.md`, as segments (`["docs", "guides", "billing"]`).
// Pages drawn from docs/*.md answer the file as it is; the others are written from the data their page renders.
// The route table comes from the caller: it lives in lib/server, which a domain may not import.

/** The guides that also have a page of their own under /docs (the page renders the same file). */
const GUIDE_PAGES = new Set(["gateway", "oauth", "webhooks"]);

export async function docsMarkdown(segments: readonly string[], routes: readonly RouteLine[]): Promise<string | null> {
  const [root, section, name, ...rest] = segments;
  if (root !== "docs" || rest.length > 0) return null;
  if (section === undefined) return routesMarkdown(routes, GUIDES);
  if (section === "guides") return name === undefined ? guidesIndexMarkdown(GUIDES) : guideSource(name);
  if (section === "migrations") {
    const record = name === undefined ? undefined : versionRegistry().get(name);
    return record ? migrationMarkdown(record) : null;
  }
  if (name !== undefined) return null;
  if (section === "errors") return errorsMarkdown(ERROR_CATALOG);
  return GUIDE_PAGES.has(section) ? guideSource(section) : null;
}
