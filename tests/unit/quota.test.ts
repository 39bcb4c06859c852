// The spec's quota check (remaining = limit - used; allowed when remaining >= amount; percentage = used / limit
// * 100) and the thresholds of notifyAt, each reported once as usage climbs through it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkQuota, crossedThresholds } from "@/lib/usage/quota";
import { DEFAULT_NOTIFY_AT, PLAN_LIMITS } from "@/lib/limits/plans";

test("remaining is limit - used and the last request of the allowance is allowed", () => {
  assert.deepEqual(checkQuota(1000, 999), { limit: 1000, used: 999, remaining: 1, allowed: true, percentage: 99.9 });
  assert.deepEqual(checkQuota(1000, 0), { limit: 1000, used: 0, remaining: 1000, allowed: true, percentage: 0 });
});

test("at the limit nothing more is allowed", () => {
  const c = checkQuota(1000, 1000);
  assert.equal(c.remaining, 0);
  assert.equal(c.allowed, false);
  assert.equal(c.percentage, 100);
});

test("past the limit remaining goes negative and the percentage above 100", () => {
  const c = checkQuota(1000, 1250);
  assert.equal(c.remaining, -250);
  assert.equal(c.allowed, false);
  assert.equal(c.percentage, 125);
});

test("amount: allowed only when the whole amount fits", () => {
  assert.equal(checkQuota(100, 96, 4).allowed, true);
  assert.equal(checkQuota(100, 96, 5).allowed, false);
  assert.equal(checkQuota(100, 96).allowed, true, "amount defaults to 1");
});

test("an unlimited quota always allows and has no percentage", () => {
  assert.deepEqual(checkQuota(null, 123_456_789), { limit: null, used: 123_456_789, remaining: null, allowed: true, percentage: null });
});

test("the plans' monthly quotas are the contract's", () => {
  assert.equal(PLAN_LIMITS.free.monthlyQuota, 1_000);
  assert.equal(PLAN_LIMITS.starter.monthlyQuota, 100_000);
  assert.equal(PLAN_LIMITS.pro.monthlyQuota, 5_000_000);
  assert.equal(PLAN_LIMITS.enterprise.monthlyQuota, null);
  assert.deepEqual(DEFAULT_NOTIFY_AT, [80, 95, 100]);
});

test("a threshold is crossed by the request that reaches it, not before and not after", () => {
  assert.deepEqual(crossedThresholds(1000, 798, 799, [80, 95, 100]), []);
  assert.deepEqual(crossedThresholds(1000, 799, 800, [80, 95, 100]), [80]);
  assert.deepEqual(crossedThresholds(1000, 800, 801, [80, 95, 100]), []);
  assert.deepEqual(crossedThresholds(1000, 949, 950, [80, 95, 100]), [95]);
  assert.deepEqual(crossedThresholds(1000, 999, 1000, [80, 95, 100]), [100]);
  assert.deepEqual(crossedThresholds(1000, 1000, 1001, [80, 95, 100]), []);
});

test("a jump over several thresholds reports each of them", () => {
  assert.deepEqual(crossedThresholds(1000, 700, 960, [80, 95, 100]), [80, 95]);
  assert.deepEqual(crossedThresholds(1000, 0, 5000, [80, 95, 100]), [80, 95, 100]);
});

test("climbing one request at a time from 0 past the limit reports every threshold exactly once", () => {
  for (const [limit, notifyAt] of [
    [1000, [80, 95, 100]],
    [3, [80, 95, 100]],
    [7, [10, 50, 90, 100]],
    [100_000, [1, 99]],
  ] as const) {
    const seen: number[] = [];
    for (let used = 1; used <= limit * 1.5 + 2; used++) seen.push(...crossedThresholds(limit, used - 1, used, [...notifyAt]));
    assert.deepEqual(
      seen.sort((a, b) => a - b),
      [...notifyAt],
      `limit ${limit}`,
    );
  }
});

test("a fractional threshold point is reached by the first whole request at or above it", () => {
  // 80% of 3 is 2.4: the third request reaches it (and 95% = 2.85 and 100% = 3 with it).
  assert.deepEqual(crossedThresholds(3, 2, 3, [80, 95, 100]), [80, 95, 100]);
  assert.deepEqual(crossedThresholds(3, 1, 2, [80, 95, 100]), []);
});

test("no thresholds, nothing reported", () => {
  assert.deepEqual(crossedThresholds(1000, 0, 2000, []), []);
});
