// Prefixed, URL-safe, time-ordered ids: string order is creation order, also within one millisecond.
import { test } from "node:test";
import assert from "node:assert/strict";
import { newId, isIdOf, timeOrderedId, ID_PREFIXES } from "@/lib/ids";

const CROCKFORD_26 = /^[0-9A-HJKMNP-TV-Z]{26}$/;

test("an id is the kind's prefix, an underscore and 26 Crockford base32 characters", () => {
  const id = newId("product");
  assert.match(id, /^prod_/);
  assert.match(id.slice("prod_".length), CROCKFORD_26);
  assert.equal(encodeURIComponent(id), id);
  assert.match(newId("request"), /^req_[0-9A-HJKMNP-TV-Z]{26}$/);
  assert.match(newId("delivery"), /^whd_[0-9A-HJKMNP-TV-Z]{26}$/);
});

test("the contract's prefixes are the ones used", () => {
  assert.deepEqual(
    {
      product: ID_PREFIXES.product,
      feature: ID_PREFIXES.feature,
      price: ID_PREFIXES.price,
      business: ID_PREFIXES.business,
      project: ID_PREFIXES.project,
      apiKey: ID_PREFIXES.apiKey,
      webhook: ID_PREFIXES.webhook,
      event: ID_PREFIXES.event,
      delivery: ID_PREFIXES.delivery,
      request: ID_PREFIXES.request,
      usage: ID_PREFIXES.usage,
      oauthClient: ID_PREFIXES.oauthClient,
    },
    {
      product: "prod",
      feature: "feat",
      price: "price",
      business: "biz",
      project: "proj",
      apiKey: "key",
      webhook: "wh",
      event: "evt",
      delivery: "whd",
      request: "req",
      usage: "use",
      oauthClient: "oac",
    },
  );
});

test("10,000 ids made in a tight loop are unique and strictly increasing", () => {
  const ids = Array.from({ length: 10_000 }, () => newId("event"));
  for (let i = 1; i < ids.length; i++) {
    assert.ok(ids[i - 1] < ids[i], `id ${i} (${ids[i]}) does not sort after ${ids[i - 1]}`);
  }
  assert.equal(new Set(ids).size, ids.length);
});

test("ids from a later millisecond sort after ids from an earlier one", () => {
  const a = timeOrderedId("prod", Date.UTC(2026, 0, 1));
  const b = timeOrderedId("prod", Date.UTC(2026, 0, 1) + 1);
  const c = timeOrderedId("prod", Date.UTC(2030, 0, 1));
  assert.ok(a < b && b < c, `${a} < ${b} < ${c}`);
  // The first 10 characters of the body encode the time: same millisecond, same time part.
  const d = timeOrderedId("prod", Date.UTC(2030, 0, 1));
  assert.equal(c.slice(5, 15), d.slice(5, 15));
  assert.ok(c < d);
});

test("isIdOf accepts its own kind's ids and refuses anything else", () => {
  const id = newId("product");
  assert.equal(isIdOf("product", id), true);
  assert.equal(isIdOf("price", id), false);
  assert.equal(isIdOf("product", id.replace("prod_", "price_")), false);
  assert.equal(isIdOf("product", id.toLowerCase()), false);
  assert.equal(isIdOf("product", id.slice(0, -1)), false);
  assert.equal(isIdOf("product", `${id}0`), false);
  assert.equal(isIdOf("product", `prod_${"U".repeat(26)}`), false); // U, I, L, O are not Crockford digits
  assert.equal(isIdOf("product", `prod_${"0".repeat(25)}'`), false);
  assert.equal(isIdOf("product", ""), false);
});
