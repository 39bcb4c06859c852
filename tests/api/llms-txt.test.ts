// Agent-readable docs against the real server: /llms.txt lists a product published in this test and links its
// own llms.txt; /p/{slug}/llms.txt names the product, its price and limits, the gateway and MCP addresses and its
// docs (a 404 in plain text for an unknown or private one); every docs page's `.md` twin answers Markdown with the
// page's heading, a guide's twin is its docs/*.md file byte for byte, and the HTML pages name their twins.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { GUIDES } from "@/lib/docs/guides";
import { BASE_URL, createProduct, seedBusiness } from "../helpers/api";

const OPENAPI = {
  openapi: "3.1.0",
  info: { title: "Tides", version: "1.0.0" },
  paths: {
    "/tides/{harbour}": {
      get: {
        summary: "High and low water for a harbour",
        parameters: [
          { name: "harbour", in: "path", required: true, schema: { type: "string" } },
          { name: "days", in: "query", schema: { type: "integer" }, description: "How many days ahead" },
        ],
        responses: {
          "200": {
            description: "The tides",
            content: {
              "application/json": { schema: { type: "object", required: ["harbour"], properties: { harbour: { type: "string" } } } },
            },
          },
        },
      },
    },
  },
};

let product: { id: string; name: string; slug: string };
let portalSlug = "";
let provider: Awaited<ReturnType<typeof seedBusiness>>;

async function get(path: string, init: RequestInit = {}) {
  const res = await fetch(`${BASE_URL}${path}`, { redirect: "manual", ...init });
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
}

before(async () => {
  provider = await seedBusiness();
  const name = `Tides ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const created = await createProduct(provider.test, {
    name,
    type: "API",
    description: "High and low water for every harbour.",
    api: { upstreamUrl: "http://127.0.0.1:9/v1", openapiDocument: OPENAPI },
  });
  const price = await provider.test.post(`/v1/products/${created.id}/prices`, {
    name: "Harbour master",
    type: "usage",
    currency: "USD",
    amount: 0.02,
    rateLimit: { limit: 7, windowSeconds: 60 },
    monthlyQuota: 5000,
  });
  assert.equal(price.status, 201, price.text);
  const published = await provider.test.patch(`/v1/products/${created.id}`, { visibility: "public" });
  assert.equal(published.status, 200, published.text);
  product = { id: created.id, name, slug: published.body.data.slug };
  const apps = await provider.test.get("/v1/apps?type=Developer");
  const portal = apps.body.data.find((a: { products: string[] }) => a.products.includes(created.id));
  assert.ok(portal, "publishing made the product's portal");
  portalSlug = portal.slug;
});

test("/llms.txt: the platform, how to authenticate, the reference, the guides and the new product's llms.txt", async () => {
  const res = await get("/llms.txt");
  assert.equal(res.status, 200);
  assert.match(res.type, /^text\/plain; charset=utf-8/);
  assert.match(res.text, /^# Developer Platform\n\n> /);
  assert.match(res.text, /Authorization: Bearer sk_test_…/);
  assert.ok(res.text.includes(`(${BASE_URL}/v1/openapi.json)`), "the OpenAPI document, at the address the client used");
  assert.ok(res.text.includes(`(${BASE_URL}/docs.md)`));
  for (const g of GUIDES) assert.ok(res.text.includes(`(${BASE_URL}/docs/guides/${g.slug}.md)`), g.slug);
  assert.ok(res.text.includes(`- [${product.name}](${BASE_URL}/p/${portalSlug}/llms.txt): High and low water`), "the product is listed");
  assert.ok(res.text.includes(`${BASE_URL}/mcp/{slug}`));
});

test("/p/{slug}/llms.txt: name, plan with price and limits, authentication, gateway, MCP and docs", async () => {
  const res = await get(`/p/${portalSlug}/llms.txt`);
  assert.equal(res.status, 200, res.text);
  assert.match(res.type, /^text\/plain; charset=utf-8/);
  assert.ok(res.text.startsWith(`# ${product.name}\n\n> High and low water for every harbour.`), res.text.slice(0, 200));
  assert.ok(
    res.text.includes(
      "**Harbour master** (Per call): 0.02 USD per request. Rate limit: 7 calls / minute. Monthly quota: 5,000 calls / month.",
    ),
    res.text,
  );
  assert.ok(res.text.includes(`\`${BASE_URL}/gw/${product.slug}/\``), "the gateway's base URL");
  assert.ok(res.text.includes(`\`${BASE_URL}/mcp/${product.slug}\``), "the MCP address");
  assert.match(res.text, /Authorization: Bearer sk_/);
  assert.match(res.text, /X-API-Key/);
  assert.ok(res.text.includes(`(${BASE_URL}/p/${portalSlug}/docs.md)`));
  assert.ok(res.text.includes(`(${BASE_URL}/p/${portalSlug}/openapi.json)`));
});

test("/p/{slug}/llms.txt of an unknown or private product is a plain-text 404", async () => {
  for (const slug of ["no-such-product-here", "x", "..%2F..%2Fpackage.json"]) {
    const res = await get(`/p/${slug}/llms.txt`);
    assert.equal(res.status, 404, slug);
    assert.match(res.type, /^text\/plain/, slug);
  }
  const hidden = await provider.test.patch(`/v1/products/${product.id}`, { visibility: "private" });
  try {
    assert.equal(hidden.status, 200, hidden.text);
    const res = await get(`/p/${portalSlug}/llms.txt`);
    assert.equal(res.status, 404, "a product taken out of the catalogue has no llms.txt");
    assert.doesNotMatch(res.text, /Tides/);
    assert.ok(!(await get("/llms.txt")).text.includes(product.name), "nor a line in the platform's");
  } finally {
    const shown = await provider.test.patch(`/v1/products/${product.id}`, { visibility: "public" });
    assert.equal(shown.status, 200, shown.text);
  }
});

/** Each docs page's twin and the heading both show. */
const TWINS: [string, string][] = [
  ["/docs", "# API reference"],
  ["/docs/guides", "# Guides"],
  ["/docs/errors", "# Errors"],
  ["/docs/gateway", readFileSync("docs/gateway.md", "utf8").split("\n")[0]],
  ["/docs/oauth", readFileSync("docs/oauth.md", "utf8").split("\n")[0]],
  ["/docs/webhooks", readFileSync("docs/webhooks.md", "utf8").split("\n")[0]],
  ["/docs/migrations/v1", "# API v1"],
];

test("every docs page's .md twin answers Markdown with the page's heading, and the page names its twin", async () => {
  for (const [page, heading] of TWINS) {
    const twin = await get(`${page}.md`);
    assert.equal(twin.status, 200, page);
    assert.equal(twin.type, "text/markdown; charset=utf-8", page);
    assert.ok(twin.text.startsWith(`${heading}\n`), `${page}.md starts with "${heading}": ${twin.text.slice(0, 80)}`);
    const html = await get(page);
    assert.equal(html.status, 200, page);
    assert.ok(html.text.includes(`<link rel="alternate" type="text/markdown" href="${page}.md"/>`), `${page} links its twin`);
  }
  const reference = (await get("/docs.md")).text;
  assert.match(reference, /\| GET \| `\/v1\/products` \| .+ \| `products:read` \|/, "the route table");
  assert.match((await get("/docs/errors.md")).text, /^## INVALID_API_KEY\n\n401 · authentication_error/m, "the error catalogue");
});

test("/docs/guides/{slug}.md is the guide's docs/*.md file as it is; an unknown one is a 404", async () => {
  for (const g of GUIDES) {
    const twin = await get(`/docs/guides/${g.slug}.md`);
    assert.equal(twin.status, 200, g.slug);
    assert.equal(twin.type, "text/markdown; charset=utf-8", g.slug);
    assert.equal(twin.text, readFileSync(`docs/${g.slug}.md`, "utf8"), g.slug);
  }
  const html = await get(`/docs/guides/${GUIDES[0].slug}`);
  assert.ok(html.text.includes(`<link rel="alternate" type="text/markdown" href="/docs/guides/${GUIDES[0].slug}.md"/>`));
  for (const path of [
    "/docs/guides/nope.md",
    "/docs/guides/..%2F..%2FREADME.md",
    "/docs/migrations/v9.md",
    "/docs/errors/x.md",
    "/docs/nope.md",
  ]) {
    const res = await get(path);
    assert.equal(res.status, 404, path);
    assert.doesNotMatch(res.text, /# Developer Platform/, path);
  }
});

test("/p/{slug}/docs.md: every operation of the product's OpenAPI document, with the gateway as its base", async () => {
  const twin = await get(`/p/${portalSlug}/docs.md`);
  assert.equal(twin.status, 200, twin.text);
  assert.equal(twin.type, "text/markdown; charset=utf-8");
  assert.match(twin.text, /^# Documentation\n/);
  assert.ok(twin.text.includes(`## ${product.name}\n`));
  assert.ok(twin.text.includes(`Base URL: \`${BASE_URL}/gw/${product.slug}\``), twin.text);
  assert.match(twin.text, /^### GET \/tides\/\{harbour\}\n\nHigh and low water for a harbour$/m);
  assert.match(twin.text, /\| `days` \| query \| no \| `integer` \| How many days ahead \|/);
  assert.match(twin.text, /- `200` The tides: application\/json: `\{ harbour: string \}`/);
  const html = await get(`/p/${portalSlug}/docs`);
  assert.equal(html.status, 200);
  assert.ok(html.text.includes(`<link rel="alternate" type="text/markdown" href="/p/${portalSlug}/docs.md"/>`));
  assert.equal((await get("/p/no-such-product-here/docs.md")).status, 404);
});
