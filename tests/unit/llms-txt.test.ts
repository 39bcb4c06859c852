// The llms.txt files as text (llmstxt.org): a title, a summary, sections of links; the platform's names its API
// reference, guides (as Markdown twins), products and the MCP address; a product's names its plans as the pricing
// table words them, the gateway and MCP addresses, both ways to send a key, and its docs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { planInWords } from "@/components/marketplace/price-text";
import { GUIDES } from "@/lib/docs/guides";
import { platformLlmsTxt, productLlmsTxt } from "@/lib/docs/llms-txt";
import { REFERENCE_PAGES } from "@/lib/docs/reference-markdown";

const BASE = "https://dev.example";
const LINK = /^- \[[^\]]+\]\(\S+\)(: .+)?$/;

/** The lines under each `## ` heading of a section that should hold links only. */
function sectionLines(text: string, title: string): string[] {
  const start = text.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `section ${title}`);
  const rest = text.slice(start + title.length + 5);
  const end = rest.indexOf("\n## ");
  return (end < 0 ? rest : rest.slice(0, end)).split("\n").filter((l) => l.trim() !== "");
}

test("the platform's llms.txt: title, summary, authentication, then sections of links", () => {
  const text = platformLlmsTxt({
    base: BASE,
    guides: GUIDES,
    referencePages: REFERENCE_PAGES,
    products: [{ name: "Weather API", description: "Forecasts\nby city", provider: "Acme", url: `${BASE}/p/weather-api/llms.txt` }],
    moreProducts: false,
  });
  assert.match(text, /^# Developer Platform\n\n> \S/);
  assert.match(text, /Authorization: Bearer sk_test_…/);
  for (const title of ["API reference", "Guides", "Products", "MCP", "Optional"])
    for (const line of sectionLines(text, title)) assert.match(line, LINK, `${title}: ${line}`);
  assert.ok(text.includes(`- [OpenAPI document](${BASE}/v1/openapi.json)`));
  assert.ok(text.includes(`(${BASE}/docs.md)`) && text.includes(`(${BASE}/docs/errors.md)`));
  for (const g of GUIDES) assert.ok(text.includes(`- [${g.title}](${BASE}/docs/guides/${g.slug}.md): ${g.summary}`), g.slug);
  assert.ok(text.includes(`- [Weather API](${BASE}/p/weather-api/llms.txt): Forecasts by city, by Acme`));
  assert.ok(text.includes(`${BASE}/mcp/{slug}`));
  assert.ok(text.endsWith("\n") && !text.endsWith("\n\n"));
});

test("the MCP guide is linked when the deployment lists one, and its absence breaks nothing", () => {
  const withMcp = [
    ...GUIDES.filter((g) => g.slug !== "mcp"),
    { slug: "mcp", title: "MCP servers", summary: "Every API product as an MCP server." },
  ];
  const input = { base: BASE, referencePages: REFERENCE_PAGES, products: [], moreProducts: true };
  const text = platformLlmsTxt({ ...input, guides: withMcp });
  assert.ok(sectionLines(text, "MCP").includes(`- [MCP servers](${BASE}/docs/guides/mcp.md): Every API product as an MCP server.`));
  const without = platformLlmsTxt({ ...input, guides: GUIDES.filter((g) => g.slug !== "mcp") });
  assert.doesNotMatch(without, /guides\/mcp\.md/);
  assert.match(without, /## Products\n\nNo product is public yet\./);
  assert.match(without, /more than are listed above/);
});

const PRICE = {
  id: "price_1",
  name: "Basic",
  type: "usage",
  currency: "USD",
  amount: 0.002,
  interval: null,
  includedQuantity: null,
  tiers: null,
  tiersMode: null,
  baseSubscription: null,
  overageRate: null,
  metrics: null,
  rateLimit: { limit: 3, windowSeconds: 60 },
  monthlyQuota: 1000,
};

test("a product's llms.txt: plans with price, rate limit and quota, gateway, MCP, authentication, docs", () => {
  const text = productLlmsTxt({
    base: BASE,
    portalSlug: "weather-api",
    title: "Weather API",
    summary: null,
    docsView: true,
    guides: GUIDES,
    products: [
      {
        name: "Weather API",
        slug: "weather-api",
        description: "Forecasts by city",
        provider: "Acme",
        gateway: `${BASE}/gw/weather-api`,
        openapiUrl: `${BASE}/p/weather-api/openapi.json`,
        plans: [planInWords(PRICE as never)],
        features: [{ name: "Hourly", description: null }],
      },
    ],
  });
  assert.match(text, /^# Weather API\n\n> Forecasts by city\n/);
  assert.ok(text.includes("- **Basic** (Per call): 0.002 USD per call. Rate limit: 3 calls / minute. Monthly quota: 1,000 calls / month."));
  assert.ok(text.includes(`Gateway base URL: \`${BASE}/gw/weather-api/\``), "the gateway with its trailing slash");
  assert.ok(text.includes(`MCP server: \`${BASE}/mcp/weather-api\``));
  assert.match(text, /Authorization: Bearer sk_test_…/);
  assert.match(text, /X-API-Key: sk_test_…/);
  assert.ok(text.includes(`- [API reference (Markdown)](${BASE}/p/weather-api/docs.md)`));
  assert.ok(text.includes(`- [OpenAPI document](${BASE}/p/weather-api/openapi.json)`));
  assert.ok(text.includes(`- [Developer Platform](${BASE}/llms.txt)`));
  for (const line of sectionLines(text, "Docs")) assert.match(line, LINK);
});

test("a portal of two products gives each its own section; a portal without docs links no reference page", () => {
  const product = (name: string, slug: string) => ({
    name,
    slug,
    description: null,
    provider: "Acme",
    gateway: `${BASE}/gw/${slug}`,
    openapiUrl: null,
    plans: [],
    features: [],
  });
  const text = productLlmsTxt({
    base: BASE,
    portalSlug: "acme",
    title: "Acme APIs",
    summary: "Two APIs",
    docsView: false,
    guides: GUIDES,
    products: [product("Maps", "maps"), product("Routes", "routes")],
  });
  assert.match(text, /^## Maps$/m);
  assert.match(text, /^## Routes$/m);
  assert.ok(text.includes(`${BASE}/mcp/routes`));
  assert.match(text, /No plan is on sale yet\./);
  assert.doesNotMatch(text, /docs\.md/);
});
