// Prisma's SQLite DateTime text (lib/db/sqlite-direct.ts toSqliteDate), formatted from a cached minute: the same
// text as toISOString's with "+00:00", across minutes, hours, days, years and the range's edges.
import { test } from "node:test";
import assert from "node:assert/strict";
import { toSqliteDate } from "@/lib/db/sqlite-direct";

const reference = (d: Date) => d.toISOString().replace("Z", "+00:00");

test("every millisecond's text is toISOString's with +00:00, in order and out of order", () => {
  const starts = [
    Date.UTC(2026, 10, 30, 1, 59, 59, 990), // across a minute and an hour
    Date.UTC(2026, 11, 31, 23, 59, 58, 0), // across a year
    Date.UTC(2028, 1, 28, 23, 59, 59, 0), // into a leap day
    0, // the epoch
  ];
  for (const start of starts) {
    for (let ms = start; ms < start + 2500; ms += 7) {
      const d = new Date(ms);
      assert.equal(toSqliteDate(d), reference(d));
    }
  }
  // Back and forth between minutes: the cached minute must follow.
  for (let i = 0; i < 2000; i++) {
    const d = new Date(Date.UTC(2026, 0, 1) + Math.floor(Math.random() * 400 * 86_400_000));
    assert.equal(toSqliteDate(d), reference(d));
  }
});

test("dates before 1970 and after 9999 keep toISOString's own form; an invalid date throws as it does", () => {
  for (const ms of [-1, -61_001, Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), 8.64e15]) {
    const d = new Date(ms);
    assert.equal(toSqliteDate(d), reference(d));
  }
  assert.throws(() => toSqliteDate(new Date(Number.NaN)), RangeError);
});
