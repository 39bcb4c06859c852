// The guides under docs/ served by the portal: each at /docs/guides/{slug} with its own title, links between
// guides pointing at their pages, a slug outside the list (or a path in disguise) a 404, and /docs linking to all.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { GUIDES } from "@/lib/docs/guides";
import { BASE_URL } from "../helpers/api";

/** The page's text as a reader sees it: React's text separators gone, entities decoded. */
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

async function get(path: string) {
  const res = await fetch(`${BASE_URL}${path}`, { redirect: "manual" });
  return { status: res.status, html: await res.text(), type: res.headers.get("content-type") ?? "" };
}

test("every guide is served at /docs/guides/{slug} with its markdown's title", async () => {
  for (const guide of GUIDES) {
    const page = await get(`/docs/guides/${guide.slug}`);
    assert.equal(page.status, 200, guide.slug);
    assert.match(page.type, /^text\/html/);
    const title = readFileSync(`docs/${guide.slug}.md`, "utf8")
      .split("\n")[0]
      .slice(2)
      .replace(/`|\*\*/g, "");
    assert.ok(text(page.html).includes(title), `${guide.slug}: the heading "${title}" is on the page`);
  }
});

test("a link from one guide to another's file points at that guide's page", async () => {
  const page = await get("/docs/guides/marketplace");
  assert.match(page.html, /href="\/docs\/guides\/gateway"/);
  assert.match(page.html, /href="\/docs\/guides\/billing"/);
  // The page's <link rel="alternate"> names its Markdown twin (…/marketplace.md) on purpose; links to read are <a>.
  assert.doesNotMatch(page.html, /<a [^>]*href="[^"]*\.md["#]/, "no link is left pointing at a .md file");
});

test("a slug outside the list is a 404, whatever it spells", async () => {
  // `oauth.md` is no longer here: /docs/guides/oauth.md is that guide's Markdown twin (tests/api/llms-txt.test.ts).
  for (const slug of ["nope", "README", "..%2FREADME", "..%2F..%2Fpackage.json", "readme.md", "OAUTH"]) {
    const page = await get(`/docs/guides/${slug}`);
    assert.equal(page.status, 404, slug);
    assert.doesNotMatch(page.html, /"dependencies"|# Developer Platform/, `${slug}: no file content`);
  }
});

test("/docs and /docs/guides link to every guide; the older guide pages still answer", async () => {
  for (const index of ["/docs", "/docs/guides"]) {
    const page = await get(index);
    assert.equal(page.status, 200, index);
    for (const guide of GUIDES) assert.ok(page.html.includes(`href="/docs/guides/${guide.slug}"`), `${index} links to ${guide.slug}`);
  }
  for (const old of ["/docs/oauth", "/docs/gateway", "/docs/webhooks"]) assert.equal((await get(old)).status, 200, old);
});
