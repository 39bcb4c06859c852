import { test } from "node:test";
import assert from "node:assert/strict";
// @ts-expect-error: plain ESM script without types
import { asciiOnly } from "../../scripts/build-data-plane.mjs";

// V8 holds a module's source at one byte a character only when every character is Latin-1: the data plane's bundle is
// written in ASCII so that its 1.5 MB stay 1.5 MB in the heap (scripts/build-data-plane.mjs).
const SOURCE = [
  "// a comment — with a dash → and an arrow",
  'const text = "unió invàlid, 😀";',
  "const template = `→ ${text}`;",
  "const pattern = /[—→]/u;",
  "const emoji = /😀/u;",
  "result = { text, template, dash: pattern.test('a—b'), none: pattern.test('a-b'), emoji: emoji.test('x😀') };",
].join("\n");

test("data-plane bundle: asciiOnly leaves no character outside ASCII and changes no value", () => {
  const escaped: string = asciiOnly(SOURCE);
  assert.match(escaped, /^[\x00-\x7f]*$/);
  assert.ok(escaped.includes("// a comment \\u2014 with a dash \\u2192 and an arrow"), escaped);
  const run = (code: string) => new Function(`let result; ${code}; return result;`)();
  assert.deepEqual(run(escaped), run(SOURCE));
  assert.deepEqual(run(escaped), { text: "unió invàlid, 😀", template: "→ unió invàlid, 😀", dash: true, none: false, emoji: true });
});
