// Due dates and notice thresholds of the key-rotation job (lib/keys/rotation-job.ts), and the sealing of
// values kept for a one-time reveal (lib/keys/secret-box.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { dueDate, noticesDue } from "@/lib/keys/rotation-job";
import { open, seal } from "@/lib/keys/secret-box";

const DAY = 86_400_000;
const created = new Date("2026-01-01T00:00:00Z");
const key = (over: Record<string, unknown> = {}) =>
  ({
    createdAt: created,
    expiresAt: null as Date | null,
    rotation: null as unknown,
    rotationNotices: null as unknown,
    ...over,
  }) as Parameters<typeof noticesDue>[0];

test("a key is due on its expiry or maxAge days after creation, whichever comes first", () => {
  assert.equal(dueDate(key()), null);
  assert.deepEqual(dueDate(key({ expiresAt: new Date(created.getTime() + 10 * DAY) })), {
    at: new Date(created.getTime() + 10 * DAY),
    reason: "expiresAt",
  });
  assert.deepEqual(dueDate(key({ rotation: { maxAge: 5 } })), { at: new Date(created.getTime() + 5 * DAY), reason: "maxAge" });
  assert.equal(dueDate(key({ expiresAt: new Date(created.getTime() + 3 * DAY), rotation: { maxAge: 5 } }))!.reason, "expiresAt");
  assert.equal(dueDate(key({ expiresAt: new Date(created.getTime() + 9 * DAY), rotation: { maxAge: 5 } }))!.reason, "maxAge");
});

test("notices: the nearest passed threshold, once; nothing before the first or after the due date", () => {
  const due = new Date(created.getTime() + 30 * DAY);
  const k = key({ expiresAt: due });
  assert.equal(noticesDue(k, new Date(due.getTime() - 8 * DAY)), null);
  const first = noticesDue(k, new Date(due.getTime() - 6 * DAY))!;
  assert.equal(first.threshold, 7);
  assert.deepEqual(first.record, { dueAt: due.toISOString(), days: [7] });
  const sent = key({ expiresAt: due, rotationNotices: first.record });
  assert.equal(noticesDue(sent, new Date(due.getTime() - 5 * DAY)), null, "the 7-day notice is not sent twice");
  const late = noticesDue(key({ expiresAt: due }), new Date(due.getTime() - 12 * 3_600_000))!;
  assert.equal(late.threshold, 1, "a late run sends one notice, for the nearest threshold");
  assert.deepEqual(late.record.days, [7, 1]);
  assert.equal(noticesDue(k, new Date(due.getTime() + 1)), null);
  const moved = key({ expiresAt: new Date(due.getTime() + DAY), rotationNotices: first.record });
  assert.equal(noticesDue(moved, new Date(due.getTime() - 5 * DAY))!.threshold, 7, "a new due date starts afresh");
});

test("custom notificationDays", () => {
  const due = new Date(created.getTime() + 30 * DAY);
  const k = key({ expiresAt: due, rotation: { notificationDays: [14, 3] } });
  assert.equal(noticesDue(k, new Date(due.getTime() - 10 * DAY))!.threshold, 14);
  assert.equal(noticesDue(k, new Date(due.getTime() - 2 * DAY))!.threshold, 3);
});

test("sealed values open only under the same secret and untampered", () => {
  const sealed = seal("sk_test_abc");
  assert.notEqual(sealed, seal("sk_test_abc"), "a fresh IV each time");
  assert.ok(!sealed.includes("sk_test_abc"));
  assert.equal(open(sealed), "sk_test_abc");
  const parts = sealed.split(".");
  parts[3] = Buffer.from("sk_live_xyz").toString("base64url");
  assert.equal(open(parts.join(".")), null);
  assert.equal(open("garbage"), null);
});
