// The import rules of .dependency-cruiser.cjs, run on small trees made for the test: a type-only import from lib/
// into components/ is refused, as is a circle, and a tree that points down passes.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";

const root = process.cwd();

/** Cruises a tree of `files` with the project's rules; returns the rule names it reports. */
function violations(files: Record<string, string>): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "import-rules-"));
  try {
    cpSync(path.join(root, ".dependency-cruiser.cjs"), path.join(dir, ".dependency-cruiser.cjs"));
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@/*": ["./*"] }, jsx: "preserve" } }),
    );
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    const out = execFileSync(
      path.join(root, "node_modules/.bin/depcruise"),
      ["lib", "components", "--config", ".dependency-cruiser.cjs", "--output-type", "json"],
      { cwd: dir, encoding: "utf8" },
    );
    const report = JSON.parse(out) as { summary: { violations: { rule: { name: string } }[] } };
    return report.summary.violations.map((v) => v.rule.name).sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a tree whose imports point down passes", () => {
  const found = violations({
    "lib/apps/panel.ts": "export type Panel = { title: string };\n",
    "components/apps/panel.tsx": 'import type { Panel } from "@/lib/apps/panel";\nexport const title = (p: Panel) => p.title;\n',
  });
  assert.deepEqual(found, []);
});

test("a type-only import from lib/ into components/ is refused", () => {
  const found = violations({
    "lib/apps/panel.ts": 'import type { Block } from "@/components/apps/block";\nexport type Panel = { block: Block };\n',
    "components/apps/block.tsx": "export type Block = { kind: string };\n",
  });
  assert.deepEqual(found, ["lib-does-not-import-ui"]);
});

test("a circle is refused, in components/ as in lib/", () => {
  const found = violations({
    "lib/apps/panel.ts": "export type Panel = { title: string };\n",
    "components/apps/a.tsx": 'import type { B } from "./b";\nexport type A = { b?: B };\n',
    "components/apps/b.tsx": 'import type { A } from "./a";\nexport type B = { a?: A };\n',
  });
  assert.deepEqual([...new Set(found)], ["no-import-circles"]);
});
