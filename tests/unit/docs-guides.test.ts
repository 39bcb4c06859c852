// The guides under docs/ and the README as files: every guide the portal serves exists and stands on its own
// (a title and an intro saying who it is for), every docs/*.md is served, the README stays short, and no relative
// link in them points at a file or heading that is not there (they are read on GitHub and in the portal alike).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { GUIDES, guideBySlug, guideLinkTarget } from "@/lib/docs/guides";

const ROOT = process.cwd();
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const docFiles = readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md"));

/** The heading ids components/docs/markdown.tsx gives, outside fenced code. */
function headingIds(source: string): Set<string> {
  const ids = new Set<string>();
  let inCode = false;
  for (const line of source.split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    else if (!inCode && /^#{1,4} /.test(line))
      ids.add(
        line
          .slice(line.indexOf(" ") + 1)
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "-"),
      );
  }
  return ids;
}

/** Markdown links and images outside fenced code: [label](href), ![alt](href). */
function links(source: string): string[] {
  const out: string[] = [];
  let inCode = false;
  for (const line of source.split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    else if (!inCode) for (const m of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) out.push(m[1]);
  }
  return out;
}

test("every listed guide has its file, a title and an intro saying who it is for", () => {
  assert.ok(GUIDES.length >= 14);
  assert.equal(new Set(GUIDES.map((g) => g.slug)).size, GUIDES.length, "slugs are unique");
  for (const g of GUIDES) {
    assert.match(g.slug, /^[a-z0-9-]+$/);
    const file = `docs/${g.slug}.md`;
    assert.ok(existsSync(path.join(ROOT, file)), `${file} exists`);
    const [title, blank, intro] = read(file).split("\n");
    assert.match(title, /^# \S/, `${file} starts with a title`);
    assert.equal(blank, "", file);
    assert.match(intro, /^For \S/, `${file}: the intro says who the page is for`);
  }
});

test("every docs/*.md is a served guide", () => {
  for (const f of docFiles) assert.ok(guideBySlug(f.slice(0, -3)), `docs/${f} is in lib/docs/guides.ts`);
});

test("README.md is at most 300 lines", () => {
  const lines = read("README.md").split("\n").length - 1;
  assert.ok(lines <= 300, `README.md has ${lines} lines`);
});

test("relative links in README.md and docs/*.md point at files and headings that exist", () => {
  const files = ["README.md", ...docFiles.map((f) => `docs/${f}`)];
  let checked = 0;
  for (const file of files) {
    for (const href of links(read(file))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("/")) continue; // URLs and the site's own routes
      const [target, anchor] = href.split("#");
      const resolved = target ? path.join(path.dirname(file), target) : file;
      assert.ok(existsSync(path.join(ROOT, resolved)), `${file}: ${href} points at ${resolved}, which does not exist`);
      if (anchor && resolved.endsWith(".md"))
        assert.ok(headingIds(read(resolved)).has(anchor), `${file}: ${href}: ${resolved} has no heading #${anchor}`);
      checked++;
    }
  }
  assert.ok(checked > 20, `checked ${checked} links`);
});

test("links to a guide's file point at its served page; others are left as written", () => {
  assert.equal(guideLinkTarget("billing.md"), "/docs/guides/billing");
  assert.equal(guideLinkTarget("./billing.md"), "/docs/guides/billing");
  assert.equal(guideLinkTarget("docs/billing.md"), "/docs/guides/billing");
  assert.equal(guideLinkTarget("security.md#idempotency-after-a-crash"), "/docs/guides/security#idempotency-after-a-crash");
  assert.equal(guideLinkTarget("nope.md"), "nope.md");
  assert.equal(guideLinkTarget("../README.md"), "../README.md");
  assert.equal(guideLinkTarget("screenshots/usage-light.png"), "screenshots/usage-light.png");
  assert.equal(guideLinkTarget("https://example.com/billing.md"), "https://example.com/billing.md");
});
