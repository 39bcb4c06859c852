// The five-field cron validator used by function schedules and schedule triggers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cronProblem, isValidCron, parseCron } from "@/lib/automation/cron";

const parsed = (expr: string) => {
  const r = parseCron(expr);
  assert.ok(r.ok, `'${expr}' should be valid: ${r.ok ? "" : r.message}`);
  return r.value;
};

test("accepts the common forms: *, values, lists, ranges, steps and names", () => {
  for (const expr of [
    "* * * * *",
    "0 0 * * *",
    "*/15 * * * *",
    "0 9-17 * * 1-5",
    "0 9-17 * * MON-FRI",
    "30 4 1,15 * *",
    "0 0 1 JAN *",
    "0 0 * * sun",
    "5/15 * * * *",
    "0-30/10 * * * *",
    "0 12 * Jan-Mar,Oct *",
    "59 23 31 12 7",
    "  0   0  *  *  *  ",
    "@daily",
    "@hourly",
    "@weekly",
    "@monthly",
    "@yearly",
    "@annually",
    "@midnight",
    "@DAILY",
  ])
    assert.equal(cronProblem(expr), null, expr);
});

test("expands each field to the values it matches", () => {
  const c = parsed("*/15 9-11 1,15 JAN-MAR MON-FRI");
  assert.deepEqual(c.minute, [0, 15, 30, 45]);
  assert.deepEqual(c.hour, [9, 10, 11]);
  assert.deepEqual(c.dayOfMonth, [1, 15]);
  assert.deepEqual(c.month, [1, 2, 3]);
  assert.deepEqual(c.dayOfWeek, [1, 2, 3, 4, 5]);
  assert.deepEqual(parsed("5/20 * * * *").minute, [5, 25, 45]);
  assert.deepEqual(parsed("0-10/5 * * * *").minute, [0, 5, 10]);
  // 7 and 0 are both Sunday.
  assert.deepEqual(parsed("0 0 * * 0,7").dayOfWeek, [0]);
  assert.deepEqual(parsed("0 0 * * 5-7").dayOfWeek, [0, 5, 6]);
  assert.deepEqual(parsed("@hourly").minute, [0]);
  assert.equal(parsed("0 0 * * *").dayOfWeekAny, true);
});

test("rejects the wrong number of fields, saying how many there are", () => {
  assert.match(cronProblem("* * * *")!, /5 fields.*has 4/);
  assert.match(cronProblem("0 0 * * * *")!, /has 6/);
  assert.match(cronProblem("")!, /empty/);
  assert.match(cronProblem("   ")!, /empty/);
});

test("rejects out-of-range values and names the field", () => {
  assert.match(cronProblem("60 * * * *")!, /minute value 60 is out of range 0-59/);
  assert.match(cronProblem("0 24 * * *")!, /hour value 24 is out of range 0-23/);
  assert.match(cronProblem("0 0 0 * *")!, /day-of-month value 0 is out of range 1-31/);
  assert.match(cronProblem("0 0 32 * *")!, /day-of-month/);
  assert.match(cronProblem("0 0 1 13 *")!, /month value 13/);
  assert.match(cronProblem("0 0 * * 8")!, /day-of-week value 8/);
});

test("rejects malformed items: bad names, steps, ranges and lists", () => {
  assert.match(cronProblem("0 0 * FOO *")!, /'FOO' is not a valid month value/);
  assert.match(cronProblem("0 0 * * MOO")!, /day-of-week/);
  assert.match(cronProblem("*/0 * * * *")!, /step '0'/);
  assert.match(cronProblem("*/x * * * *")!, /step 'x'/);
  assert.match(cronProblem("*/61 * * * *")!, /step/);
  assert.match(cronProblem("1/2/3 * * * *")!, /more than one '\/'/);
  assert.match(cronProblem("5-1 * * * *")!, /runs backwards/);
  assert.match(cronProblem("1-2-3 * * * *")!, /not a range/);
  assert.match(cronProblem("-5 * * * *")!, /not a range/);
  assert.match(cronProblem("1,,2 * * * *")!, /empty list item/);
  assert.match(cronProblem("a b c d e")!, /minute/);
  assert.match(cronProblem("1.5 * * * *")!, /minute/);
  assert.match(cronProblem("@reboot")!, /shorthand/);
  assert.match(cronProblem("0 0 * * * ?")!, /has 6/);
});

test("rejects a date that never comes, unless a day of week may match", () => {
  assert.match(cronProblem("0 0 30 2 *")!, /never runs: February has no day 30/);
  assert.match(cronProblem("0 0 31 4,6 *")!, /never runs/);
  assert.equal(cronProblem("0 0 29 2 *"), null, "29 February comes in leap years");
  assert.equal(cronProblem("0 0 31 1-12 *"), null);
  assert.equal(cronProblem("0 0 30 2 MON"), null, "with a day of week, cron runs on either");
});

test("never throws, whatever the input", () => {
  for (const bad of [undefined, null, 5, {}, "x".repeat(10_000), "\u0000 * * * *"] as unknown[]) {
    assert.equal(isValidCron(bad as string), false);
  }
  assert.match(cronProblem("x".repeat(300))!, /longer than 200/);
});
