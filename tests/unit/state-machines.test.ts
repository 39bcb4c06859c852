// The task and execution state machines of contract.md: every allowed move, every refused one, and the 409 a
// refused move becomes (naming the current state and the allowed next ones).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "@/lib/http/errors";
import {
  allowedNext,
  assertMove,
  canMove,
  isFinal,
  EXECUTION_MACHINE,
  EXECUTION_STATUSES,
  TASK_MACHINE,
  TASK_STATUSES,
  type StateMachine,
} from "@/lib/automation/state-machines";

const TASK_MOVES = new Set([
  "pending>in_progress",
  "in_progress>completed",
  "in_progress>failed",
  "pending>cancelled",
  "in_progress>cancelled",
  "failed>pending",
]);
const EXECUTION_MOVES = new Set([
  "pending>running",
  "running>paused",
  "paused>running",
  "running>completed",
  "running>failed",
  "running>timeout",
  "pending>cancelled",
  "running>cancelled",
  "paused>cancelled",
]);

function checkAll(machine: StateMachine, states: readonly string[], moves: Set<string>) {
  for (const from of states) {
    for (const to of states) {
      const expected = from === to || moves.has(`${from}>${to}`);
      assert.equal(canMove(machine, from, to), expected, `${machine.name}: ${from} → ${to}`);
    }
  }
}

test("task: exactly the contract's moves are allowed (staying put is not a move)", () => {
  checkAll(TASK_MACHINE, TASK_STATUSES, TASK_MOVES);
});

test("execution: exactly the contract's moves are allowed", () => {
  checkAll(EXECUTION_MACHINE, EXECUTION_STATUSES, EXECUTION_MOVES);
});

test("final states have no way out; failed tasks can be retried", () => {
  for (const s of ["completed", "cancelled"]) assert.ok(isFinal(TASK_MACHINE, s), s);
  assert.ok(!isFinal(TASK_MACHINE, "failed"));
  assert.deepEqual(allowedNext(TASK_MACHINE, "failed"), ["pending"]);
  for (const s of ["completed", "failed", "cancelled", "timeout"]) assert.ok(isFinal(EXECUTION_MACHINE, s), s);
  for (const s of ["pending", "running", "paused"]) assert.ok(!isFinal(EXECUTION_MACHINE, s), s);
});

test("an illegal move is a 409 STATE_CONFLICT naming the current state and the allowed next ones", () => {
  assert.throws(
    () => assertMove(TASK_MACHINE, "pending", "completed"),
    (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.status, 409);
      assert.equal(e.code, "STATE_CONFLICT");
      assert.equal(e.type, "conflict_error");
      assert.equal(e.field, "status");
      assert.deepEqual(e.extra, { currentState: "pending", allowed: ["in_progress", "cancelled"], requested: "completed" });
      assert.match(e.message, /'pending'.*'completed'.*'in_progress', 'cancelled'/);
      return true;
    },
  );
  assert.throws(
    () => assertMove(EXECUTION_MACHINE, "completed", "running"),
    (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.deepEqual(e.extra?.allowed, []);
      assert.match(e.message, /'completed' is final/);
      return true;
    },
  );
  assert.doesNotThrow(() => assertMove(EXECUTION_MACHINE, "paused", "running"));
  assert.doesNotThrow(() => assertMove(TASK_MACHINE, "failed", "failed"));
});

test("names that are not states, Object.prototype's included, have no moves", () => {
  for (const name of ["unknown", "constructor", "__proto__", "toString", "hasOwnProperty"]) {
    assert.deepEqual(allowedNext(TASK_MACHINE, name), []);
    assert.equal(canMove(TASK_MACHINE, name, "pending"), false);
  }
});
