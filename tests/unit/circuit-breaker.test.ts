import { test } from "node:test";
import assert from "node:assert/strict";
import { admitCall, circuitState, recordOutcome } from "@/lib/gateway/circuit-breaker";

test("circuit breaker: opens after 5 consecutive failures, lets one probe through after the pause, closes on its success", () => {
  const id = "prod_breaker1";
  const t0 = 1_000_000;
  for (let i = 0; i < 4; i++) {
    assert.equal(admitCall(id, t0), true);
    recordOutcome(id, false, t0);
  }
  assert.equal(circuitState(id).state, "closed", "four failures: still closed");
  recordOutcome(id, true, t0);
  assert.equal(circuitState(id).consecutiveFailures, 0, "a success resets the count");
  for (let i = 0; i < 5; i++) recordOutcome(id, false, t0);
  assert.equal(circuitState(id).state, "open");
  assert.equal(admitCall(id, t0 + 1000), false, "open: answered at once");
  assert.equal(admitCall(id, t0 + 30_000), true, "after 30 s one probe goes through");
  assert.equal(admitCall(id, t0 + 30_001), false, "only one probe at a time");
  recordOutcome(id, false, t0 + 30_002);
  assert.equal(circuitState(id).state, "open", "a failed probe opens it again");
  assert.equal(admitCall(id, t0 + 60_002), true);
  recordOutcome(id, true, t0 + 60_003);
  assert.deepEqual(circuitState(id), { state: "closed", consecutiveFailures: 0 });
  assert.equal(admitCall(id, t0 + 60_004), true);
});
