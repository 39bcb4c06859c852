// `npm run readme:run -- [--base URL] [--section NAME]… [--upstream-port N] [FILE…]`: runs the README's (and docs')
// marked shell blocks as written against a running server (scripts/lib/doc-blocks.mjs says how), in order, and
// prints `ok`/`not ok` a block with what was wrong. Exits 1 when a block failed. `.ci/start-check` runs the README's
// first calls with it against a fresh `npm start`; tests/api/readme.test.ts runs every marked block.
import { parseArgs } from "node:util";
import { docBlocks, runBlocks } from "./lib/doc-blocks.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: "string" },
    section: { type: "string", multiple: true },
    "upstream-port": { type: "string" },
  },
});
const blocks = docBlocks({ files: positionals.length ? positionals : undefined, sections: values.section });
if (!blocks.length) {
  console.error("error: no marked blocks (`<!-- run: SECTION -->` before a ```sh block) in those files or sections");
  process.exit(1);
}
const results = await runBlocks(blocks, {
  base: values.base,
  upstreamPort: values["upstream-port"] ? Number(values["upstream-port"]) : undefined,
});
for (const r of results) {
  const name = `${r.block.file}:${r.block.line} (${r.block.section})`;
  if (r.ok) console.log(`ok - ${name}`);
  else {
    console.log(`not ok - ${name}`);
    for (const p of r.problems) console.log(`  ${p}`);
  }
}
const failed = results.filter((r) => !r.ok).length;
console.log(`doc blocks: ${results.length - failed} ran as written, ${failed} failed`);
process.exit(failed ? 1 : 0);
