// GET /docs.md, /docs/{page}.md, /p/{slug}/docs.md (rewritten here by next.config.mjs): a docs page's Markdown twin.
import { docsMarkdown } from "@/lib/docs/markdown-twin";
import { markdownResponse, plainTextResponse } from "@/lib/docs/markdown-text";
import { productDocsMarkdown } from "@/lib/docs/product-docs-markdown";
import { publicBaseUrl } from "@/lib/http/public-base-url";
import { getPortalContext } from "@/lib/portal/portal-context";
import { ROUTES } from "@/lib/server/route-table";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ path: string[] }> }) {
  const { path } = await params;
  const [root, slug, page, ...rest] = path;
  if (root === "p" && page === "docs" && rest.length === 0) {
    // As the portal's Documentation page: its own business also sees a draft portal, so the answer is private.
    const viewer = await getPortalContext();
    const markdown = await productDocsMarkdown(slug, viewer?.business.id ?? null, publicBaseUrl(req));
    return markdown === null ? notFound() : markdownResponse(markdown, { cache: "private, max-age=60" });
  }
  const markdown = await docsMarkdown(path, ROUTES);
  return markdown === null ? notFound() : markdownResponse(markdown);
}

const notFound = () => plainTextResponse("Not found: no docs page has this address.\n", { status: 404, cache: "no-store" });
