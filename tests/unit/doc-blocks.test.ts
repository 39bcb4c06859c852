// The README's runnable blocks (scripts/lib/doc-blocks.mjs): which blocks are found, how a reader's placeholders are
// filled from what earlier blocks printed, and what in a block's output counts as a failure.
import { test } from "node:test";
import assert from "node:assert/strict";
// @ts-expect-error: plain ESM script without types
import { checkOutput, extractBlocks, learnIds, substitute } from "../../scripts/lib/doc-blocks.mjs";

const START = "\n<<doc-block-curl-start>>\n";
const end = (status: string | number, url: string) => `\n<<doc-block-curl-end ${status} ${url}>>\n`;

test("only the sh blocks right after a run marker are found, with their section, line and allowed statuses", () => {
  const md = [
    "# Title",
    "```sh",
    "echo not marked",
    "```",
    "<!-- run: first-calls -->",
    "```sh",
    "echo one",
    "echo two",
    "```",
    "<!-- run: walk-through allow=402,409 -->",
    "```bash",
    "echo three",
    "```",
  ].join("\n");
  const blocks = extractBlocks(md, "X.md");
  assert.deepEqual(
    blocks.map((b: { section: string; line: number; code: string; allow: number[] }) => [b.section, b.line, b.code, b.allow]),
    [
      ["first-calls", 6, "echo one\necho two", []],
      ["walk-through", 11, "echo three", [402, 409]],
    ],
  );
});

test("a marker that is not followed by a shell block is an error, not a block silently skipped", () => {
  assert.throws(() => extractBlocks("<!-- run: x -->\n\n```sh\necho\n```", "Y.md"), /Y\.md:1: a run marker must be followed/);
  assert.throws(() => extractBlocks("<!-- run: x -->\n```sh\necho", "Y.md"), /never closed/);
});

test("placeholders take the newest id of their prefix printed before; comments are left as written", () => {
  const learned = learnIds('{"projectId":"proj_01AAAAAAAAAAAAAAAAAAAAAAAA","testKey":"sk_test_abcdefghijklmnopqrstuvwxyz012"}');
  learnIds('{"id":"proj_01BBBBBBBBBBBBBBBBBBBBBBBB"}', learned);
  const { code, missing } = substitute(
    'export KEY=sk_test_…\nnpm run cli -- keys create --project proj_… # {"projectId":"proj_…"}\ncurl localhost:3000/v1/x',
    learned,
    { "localhost:3000": "127.0.0.1:4567" },
  );
  assert.deepEqual(missing, []);
  assert.equal(
    code,
    'export KEY=sk_test_abcdefghijklmnopqrstuvwxyz012\nnpm run cli -- keys create --project proj_01BBBBBBBBBBBBBBBBBBBBBBBB # {"projectId":"proj_…"}\ncurl 127.0.0.1:4567/v1/x',
  );
  assert.deepEqual(substitute('-d \'{"priceId":"price_…"}\'', learned).missing, ["price_…"], "nothing printed a price: said, not guessed");
});

test("a curl's answer fails the block on an error status, an error envelope, or an API answer without data", () => {
  const ok = `${START}{"data":[],"meta":{}}${end(200, "http://127.0.0.1:1/v1/products")}`;
  assert.deepEqual(checkOutput(ok), []);
  const notFound = `${START}{"error":{"code":"ROUTE_NOT_FOUND"}}${end(404, "http://127.0.0.1:1/v1/productz")}`;
  assert.match(checkOutput(notFound).join(), /404 from \/v1\/productz/);
  assert.deepEqual(checkOutput(notFound, [404]), [], "a status the marker allows is the answer the reader is shown");
  assert.match(checkOutput(`${START}{"items":[]}${end(200, "http://h/v1/products")}`).join(), /no "data"/);
  assert.match(checkOutput(`${START}{"data":${end(200, "http://h/v1/products")}`).join(), /not valid JSON/);
  assert.match(checkOutput(`${START}${end("000", "http://127.0.0.1:9/v1/x")}`).join(), /could not connect/);
  // A gateway answer is the upstream's own JSON, read after its headers (curl -i).
  const gateway = `${START}HTTP/1.1 200 OK\r\nx-request-cost: 0.002 USD\r\n\r\n{"city":"Oslo"}${end(200, "http://h/gw/weather-api/forecast")}`;
  assert.deepEqual(checkOutput(gateway), []);
});

test("output beside the curls: a JSON line must parse and carry no error", () => {
  assert.deepEqual(checkOutput('> npm banner\n{"businessId":"biz_1"}\n'), []);
  assert.match(checkOutput('{"error":"no project"}\n').join(), /printed an error/);
  assert.match(checkOutput("{not json\n").join(), /not valid JSON/);
});
