import { guideHref, type Guide } from "./guides";
import { mdBlocks, oneLine } from "./markdown-text";

// The llms.txt files (llmstxt.org): a `# Title`, a `> summary`, a few lines of what to know first, then `## `
// sections of `- [name](url): note` links, with `## Optional` for what an agent may skip. Pure functions of what
// the routes read (the guides, the catalogue, a product portal), so the wording is tested without a server.
// Links point at the Markdown twins (`….md`) where a page has one: that is what an agent reads best.

export interface LlmsLink {
  name: string;
  url: string;
  note?: string | null;
}

const link = (l: LlmsLink) => `- [${l.name.replace(/[[\]]/g, "")}](${l.url})${l.note ? `: ${oneLine(l.note)}` : ""}`;
const section = (title: string, links: LlmsLink[]) => (links.length ? `## ${title}\n\n${links.map(link).join("\n")}` : null);

/** The guide that explains MCP, when this deployment ships one (docs/mcp.md listed in lib/docs/guides.ts). */
export const mcpGuide = (guides: readonly Guide[]) => guides.find((g) => g.slug === "mcp") ?? null;

export const mcpAddress = (base: string, productSlug: string) => `${base}/mcp/${productSlug}`;
export const gatewayBase = (address: string) => (address.endsWith("/") ? address : `${address}/`);

export interface CatalogueEntry {
  name: string;
  description: string | null;
  provider: string;
  /** The product's own llms.txt (its portal's), or its catalogue page when no portal presents it. */
  url: string;
}

/** The /docs pages beside the guides, as links to their Markdown twins. */
export interface ReferencePage {
  path: string;
  title: string;
  summary: string;
}

/** GET /llms.txt: what the platform is, how to authenticate, and where everything an agent may need lives. */
export function platformLlmsTxt(o: {
  base: string;
  guides: readonly Guide[];
  referencePages: readonly ReferencePage[];
  products: CatalogueEntry[];
  /** More public products exist than are listed. */
  moreProducts: boolean;
}): string {
  const { base } = o;
  const mcp = mcpGuide(o.guides);
  return mdBlocks([
    "# Developer Platform",
    "> A marketplace and API platform: businesses publish API products with plans and serve them through this deployment's gateway; " +
      "developers find them in the catalogue, subscribe, make API keys and call them. One versioned REST API (`/v1`) manages " +
      "products, prices, keys, limits, usage, invoices and webhooks.",
    [
      `Authenticate every \`/v1\` call with an API key: \`Authorization: Bearer sk_test_…\` (test data, never charged) or ` +
        "`Bearer sk_live_…` (live data). Keys come from signing up in the portal " +
        `(${base}/signup) or from the operator CLI (\`npm run cli -- bootstrap\`); third-party applications use OAuth 2.0 access tokens instead. ` +
        "Errors share one JSON envelope whose `documentation` link names the error's entry.",
      `Each public API product is called through the gateway at \`${base}/gw/{slug}/…\` with a key of a subscription to it ` +
        `(\`Authorization: Bearer sk_…\` or \`X-API-Key: sk_…\`), and every API product is also an MCP server at \`${base}/mcp/{slug}\`. ` +
        "Each product's own llms.txt, below, has its plans, addresses and API reference.",
      "Every docs page has a Markdown twin: append `.md` to its path.",
    ].join("\n\n"),
    section("API reference", [
      { name: "OpenAPI document", url: `${base}/v1/openapi.json`, note: "OpenAPI 3.1 of every /v1 route; no key needed" },
      ...o.referencePages.map((p) => ({ name: p.title, url: `${base}${p.path}.md`, note: p.summary })),
    ]),
    section(
      "Guides",
      o.guides.map((g) => ({ name: g.title, url: `${base}${guideHref(g.slug)}.md`, note: g.summary })),
    ),
    section(
      "Products",
      o.products.map((p) => ({
        name: p.name,
        url: p.url,
        note: [p.description ? oneLine(p.description) : null, `by ${p.provider}`].filter(Boolean).join(", "),
      })),
    ) ?? "## Products\n\nNo product is public yet.",
    section("MCP", [
      ...(mcp ? [{ name: mcp.title, url: `${base}${guideHref(mcp.slug)}.md`, note: mcp.summary }] : []),
      {
        name: "MCP servers",
        url: `${base}/mcp/{slug}`,
        note: "every API product is also an MCP server at this address, its slug as in /gw/{slug}; the product's llms.txt names it",
      },
    ]),
    section("Optional", [
      {
        name: "Catalogue",
        url: `${base}/catalog`,
        note: `every public product as a web page${o.moreProducts ? "; more than are listed above" : ""}`,
      },
      { name: "Sign up", url: `${base}/signup`, note: "a business, its project and its first keys" },
    ]),
  ]);
}

/** A plan as the product page's pricing table shows it (components/marketplace/price-text.ts words it). */
export interface PlanText {
  name: string;
  shape: string;
  headline: string;
  details: string[];
  rate: string;
  quota: string;
}

export interface PortalProductText {
  name: string;
  slug: string | null;
  description: string | null;
  provider: string;
  gateway: string;
  openapiUrl: string | null;
  plans: PlanText[];
  features: { name: string; description: string | null }[];
}

function productSection(base: string, p: PortalProductText, heading: string | null): string {
  const planLines = p.plans.map(
    (pl) =>
      `- **${pl.name}** (${pl.shape}): ${[pl.headline, ...pl.details].join("; ")}. Rate limit: ${pl.rate}. Monthly quota: ${pl.quota}.`,
  );
  return mdBlocks([
    heading ? `## ${heading}` : null,
    heading && p.description ? oneLine(p.description) : null,
    [
      `- Gateway base URL: \`${gatewayBase(p.gateway)}\` (append the API's own paths)`,
      p.slug ? `- MCP server: \`${mcpAddress(base, p.slug)}\`` : null,
      p.openapiUrl ? `- OpenAPI document: ${p.openapiUrl}` : "- OpenAPI document: none published yet",
    ]
      .filter(Boolean)
      .join("\n"),
    `${heading ? "###" : "##"} Plans`,
    planLines.length ? planLines.join("\n") : "No plan is on sale yet.",
    p.features.length ? `${heading ? "###" : "##"} Features` : null,
    p.features.map((f) => `- ${f.name}${f.description ? `: ${oneLine(f.description)}` : ""}`).join("\n"),
  ]).trimEnd();
}

/** GET /p/{slug}/llms.txt: a product portal's products, plans, addresses, authentication and docs. */
export function productLlmsTxt(o: {
  base: string;
  portalSlug: string;
  title: string;
  summary: string | null;
  products: PortalProductText[];
  docsView: boolean;
  guides: readonly Guide[];
}): string {
  const { base } = o;
  const portal = `${base}/p/${o.portalSlug}`;
  const one = o.products.length === 1 ? o.products[0] : null;
  const provider = [...new Set(o.products.map((p) => p.provider))].join(", ");
  const summary = oneLine(o.summary ?? one?.description) || `${o.products.map((p) => p.name).join(", ")} on the Developer Platform.`;
  const gatewayGuide = o.guides.find((g) => g.slug === "gateway");
  const mcp = mcpGuide(o.guides);
  return mdBlocks([
    `# ${o.title}`,
    `> ${summary}`,
    `An API product by ${provider}, sold in plans on the Developer Platform and called through its gateway.`,
    "Authentication: subscribe to a plan (sign up at the portal below), make an API key that may call the product, and send " +
      "it with every call as `Authorization: Bearer sk_test_…` (or `sk_live_…`) or as `X-API-Key: sk_test_…`. Test keys call " +
      "in test mode and are never charged; the test card is 4242 4242 4242 4242.",
    ...o.products.map((p) => productSection(base, p, one ? null : p.name)),
    section("Docs", [
      ...(o.docsView
        ? [
            { name: "API reference (Markdown)", url: `${portal}/docs.md`, note: "every operation with its parameters, body and responses" },
            { name: "API reference", url: `${portal}/docs`, note: "the same as a web page, with a try-it console" },
          ]
        : []),
      ...o.products
        .filter((p) => p.openapiUrl)
        .map((p) => ({
          name: one ? "OpenAPI document" : `OpenAPI document of ${p.name}`,
          url: p.openapiUrl!,
          note: "with the gateway as its server",
        })),
      { name: "Developer portal", url: portal, note: "plans, sign-up, keys, usage and logs" },
      ...(gatewayGuide ? [{ name: gatewayGuide.title, url: `${base}${guideHref(gatewayGuide.slug)}.md`, note: gatewayGuide.summary }] : []),
      ...(mcp ? [{ name: mcp.title, url: `${base}${guideHref(mcp.slug)}.md`, note: mcp.summary }] : []),
    ]),
    section("Optional", [
      { name: "Developer Platform", url: `${base}/llms.txt`, note: "the platform's own llms.txt: its API, guides and catalogue" },
    ]),
  ]);
}
