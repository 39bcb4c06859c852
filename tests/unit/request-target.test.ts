// resolvePathAndQuery: what the WHATWG URL parser makes of a request target's path and query, read as a path
// even when it starts with "//"; text that is canonical already comes back without a parse.
import { test } from "node:test";
import assert from "node:assert/strict";
import { resolvePathAndQuery } from "@/lib/http/request-target";

/** The parser's answer, the text read as a path on a fixed origin. */
const parsed = (target: string) => {
  const url = new URL(`http://path.invalid${target}`);
  return url.pathname + url.search;
};

test("a leading '//' or '/\\' stays a path: never an authority", () => {
  assert.equal(resolvePathAndQuery("//evil.example/x?y=1"), "//evil.example/x?y=1");
  assert.equal(resolvePathAndQuery("///evil.example"), "///evil.example");
  assert.equal(resolvePathAndQuery("/\\evil.example/x"), "//evil.example/x");
});

test("dot segments resolve within the path, written plainly or percent-encoded, never above its root", () => {
  assert.equal(resolvePathAndQuery("/a/../b?c=1"), "/b?c=1");
  assert.equal(resolvePathAndQuery("/../../etc/passwd"), "/etc/passwd");
  assert.equal(resolvePathAndQuery("/%2e%2e/%2E%2E/admin"), "/admin");
  assert.equal(resolvePathAndQuery("/a/./b/."), "/a/b/");
  assert.equal(resolvePathAndQuery("/x#fragment"), "/x");
});

test("canonical text comes back as it is; anything else as the parser writes it", () => {
  const targets = [
    "/",
    "/forecast?city=Oslo",
    "/v1/items/42.json?fields=a,b&sort=-created",
    "/a:b@c/$(x)*+;=~_-?q=%20&r=/x?y",
    "/.hidden",
    "/a..b/c...",
    "/a//b",
    "/a b",
    '/q?x="y"',
    "/q?x='y'",
    "/ü?ü=1",
    "/a%2Fb",
    "/a?b#c",
    "/{x}|`^",
    "/?",
    "/a/?",
  ];
  for (const t of targets) assert.equal(resolvePathAndQuery(t), parsed(t), t);
  // Random text over the characters that matter, checked against the parser.
  const alphabet = ["/", ".", "%", "2", "e", "E", "a", "?", "#", "\\", " ", "'", "&", "=", ":", "@", "~", "-"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 5000; i++) {
    let t = "/";
    for (let n = next() % 12; n > 0; n--) t += alphabet[next() % alphabet.length];
    assert.equal(resolvePathAndQuery(t), parsed(t), JSON.stringify(t));
  }
});
