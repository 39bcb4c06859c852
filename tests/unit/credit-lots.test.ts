// Which credits a spend takes (lib/billing/credit-lots.ts): the lot expiring first, lots alive at the debit's time
// only, and what an expiring lot loses; and which spend thresholds a call crosses (lib/billing/spend-alerts.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { allocateLots, lotBoundaries, type Lot } from "@/lib/billing/credit-lots";
import { crossedThresholds } from "@/lib/billing/spend-alerts";

const lot = (id: string, amount: number, createdAt: number, expiresAt: number | null = null): Lot => ({
  id,
  amount: BigInt(amount),
  createdAt,
  expiresAt,
});

const view = (states: ReturnType<typeof allocateLots>) => states.map((s) => [s.id, s.remaining, s.expired]);

test("a debit takes the lot expiring first, then lots that never expire, older first", () => {
  const lots = [lot("never-old", 100, 0), lot("never-new", 100, 5), lot("soon", 50, 10, 100)];
  assert.deepEqual(view(allocateLots(lots, [{ at: 20, amount: 70n }], 50)), [
    ["never-old", 80n, null],
    ["never-new", 100n, null],
    ["soon", 0n, null],
  ]);
});

test("a debit before a lot existed is taken from the lots of its time; an expired lot loses what is left of it", () => {
  const lots = [lot("a", 100, 0), lot("b", 100, 50, 200)];
  // 5 spent before b existed come from a; 30 after come from b (expiring first); b then lapses with 70.
  const debits = [
    { at: 10, amount: 5n },
    { at: 60, amount: 30n },
  ];
  assert.deepEqual(view(allocateLots(lots, debits, 300)), [
    ["a", 95n, null],
    ["b", 0n, 70n],
  ]);
  // A lot is not spendable at its expiresAt itself: a spend then comes from a.
  assert.deepEqual(view(allocateLots(lots, [{ at: 200, amount: 10n }], 300)), [
    ["a", 90n, null],
    ["b", 0n, 100n],
  ]);
  // Before `until` reaches the expiry, b is still alive with what is left.
  assert.deepEqual(view(allocateLots(lots, debits, 150)), [
    ["a", 95n, null],
    ["b", 70n, null],
  ]);
});

test("lot boundaries are the instants the set of live lots changes, up to `until`", () => {
  assert.deepEqual(lotBoundaries([lot("a", 1, 0), lot("b", 1, 50, 200), lot("c", 1, 400)], 300), [0, 50, 200]);
});

test("spend thresholds: each is crossed once, by the call that reaches it", () => {
  const cap = 500_000_000n; // 0.5 in nanos
  assert.deepEqual(crossedThresholds([50, 80, 100], cap, 398_000_000n, 400_000_000n), [80]);
  assert.deepEqual(crossedThresholds([50, 80, 100], cap, 400_000_000n, 402_000_000n), []);
  assert.deepEqual(crossedThresholds([50, 80, 100], cap, 498_000_000n, 500_000_000n), [100]);
  assert.deepEqual(crossedThresholds([50, 80, 100], cap, 0n, 600_000_000n), [50, 80, 100]);
  assert.deepEqual(crossedThresholds([50], 0n, 0n, 10n), []);
});
