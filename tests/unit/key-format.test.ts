// API key values: sk_test_/sk_live_ plus 43 URL-safe characters; only an HMAC of the value is stored.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";

// The hashing secret is read once, on first use: set it before the module is loaded.
const SECRET = "unit-test-key-hash-secret";
process.env.KEY_HASH_SECRET = SECRET;
const { generateKeyValue, hasKeyShape, hashKey, hashesEqual, environmentOf, keyTypeOf, KEY_PREFIX } = await import("@/lib/keys/key-format");

test("generated keys are sk_test_/sk_live_ followed by 43 URL-safe characters", () => {
  const testKey = generateKeyValue("test");
  const liveKey = generateKeyValue("live");
  assert.match(testKey, /^sk_test_[A-Za-z0-9_-]{43}$/);
  assert.match(liveKey, /^sk_live_[A-Za-z0-9_-]{43}$/);
  assert.equal(encodeURIComponent(testKey), testKey);
  assert.equal(KEY_PREFIX.test, "sk_test_");
  assert.equal(KEY_PREFIX.live, "sk_live_");
});

test("generated keys differ every time", () => {
  const keys = new Set(Array.from({ length: 200 }, () => generateKeyValue("test")));
  assert.equal(keys.size, 200);
});

test("hasKeyShape accepts generated keys and rejects a wrong prefix, length or alphabet", () => {
  const key = generateKeyValue("live");
  const body = key.slice("sk_live_".length);
  assert.equal(hasKeyShape(key), true);
  assert.equal(hasKeyShape(generateKeyValue("test")), true);
  assert.equal(hasKeyShape(`sk_prod_${body}`), false);
  assert.equal(hasKeyShape(`pk_live_${body}`), false);
  assert.equal(hasKeyShape(`sk_live_${body.slice(1)}`), false);
  assert.equal(hasKeyShape(`sk_live_${body}A`), false);
  assert.equal(hasKeyShape(`sk_live_é${body.slice(1)}`), false);
  assert.equal(hasKeyShape(`sk_live_\u0410${body.slice(1)}`), false); // Cyrillic A, same length
  assert.equal(hasKeyShape(`sk_live_${body.slice(1)}=`), false);
  assert.equal(hasKeyShape(`sk_live_ ${body.slice(1)}`), false);
  assert.equal(hasKeyShape(""), false);
});

test("hashKey is deterministic for one secret and is the HMAC-SHA256 of the key under it", () => {
  const key = generateKeyValue("test");
  const hash = hashKey(key);
  assert.equal(hashKey(key), hash);
  assert.match(hash, /^[0-9a-f]{64}$/);
  assert.equal(hash, createHmac("sha256", SECRET).update(key, "utf8").digest("hex"));
  // Not a plain SHA-256 of the key: a leaked table alone cannot check guesses.
  assert.notEqual(hash, createHmac("sha256", "").update(key).digest("hex"));
  assert.notEqual(hashKey(generateKeyValue("test")), hash);
  assert.ok(!hash.includes(key.slice(8)));
});

test("hashesEqual compares hashes and is false for different or differently sized ones", () => {
  const a = hashKey(generateKeyValue("test"));
  const b = hashKey(generateKeyValue("test"));
  assert.equal(hashesEqual(a, a), true);
  assert.equal(hashesEqual(a, `${a}`), true);
  assert.equal(hashesEqual(a, b), false);
  assert.equal(hashesEqual(a, a.slice(0, 62)), false);
  assert.equal(hashesEqual(a, ""), false);
});

test("key type and environment map both ways", () => {
  assert.equal(environmentOf("live"), "production");
  assert.equal(environmentOf("test"), "test");
  assert.equal(keyTypeOf("production"), "live");
  assert.equal(keyTypeOf("test"), "test");
});
