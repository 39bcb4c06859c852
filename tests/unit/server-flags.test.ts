// The server's node flags (scripts/lib/server-flags.mjs): the defaults, SERVER_NODE_FLAGS replacing them, and a node
// that starts with them (a flag node does not know would stop `npm start` and every test server at once).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
// @ts-expect-error: plain ESM script without types
import { serverNodeFlags } from "../../scripts/lib/server-flags.mjs";

test("server flags: a young generation of up to 16 MB and a heap that grows by half, unless SERVER_NODE_FLAGS says otherwise", () => {
  assert.deepEqual(serverNodeFlags({}), ["--max-semi-space-size=16", "--heap-growing-percent=50"]);
  assert.deepEqual(serverNodeFlags({ SERVER_NODE_FLAGS: "" }), []);
  assert.deepEqual(serverNodeFlags({ SERVER_NODE_FLAGS: " --max-old-space-size=512   --trace-gc " }), [
    "--max-old-space-size=512",
    "--trace-gc",
  ]);
});

test("server flags: node starts with the defaults (and refuses a flag it does not know, which this relies on)", () => {
  const started = spawnSync(process.execPath, [...serverNodeFlags({}), "-e", "process.exit(0)"], { encoding: "utf8" });
  assert.equal(started.status, 0, started.stderr);
  const refused = spawnSync(process.execPath, ["--max-semi-space-sise=4", "-e", "process.exit(0)"], { encoding: "utf8" });
  assert.notEqual(refused.status, 0);
});
