// How many data-plane workers `npm start` runs (scripts/serve.mjs): one on the embedded default, every core with
// Redis, and a setting it cannot honour refused with the reason.
import { test } from "node:test";
import assert from "node:assert/strict";
// @ts-expect-error: plain ESM script without types
import { dataPlaneWorkers, idleReleaseQuietMs } from "../../scripts/serve.mjs";

test("defaults: one worker without Redis, one per core with it", () => {
  assert.deepEqual(dataPlaneWorkers({}, 8), { workers: 1 });
  assert.deepEqual(dataPlaneWorkers({ REDIS_URL: "redis://127.0.0.1:6379" }, 8), { workers: 8 });
});

test("DATA_PLANE_WORKERS is honoured when it can be", () => {
  assert.deepEqual(dataPlaneWorkers({ DATA_PLANE_WORKERS: "1" }, 8), { workers: 1 });
  assert.deepEqual(dataPlaneWorkers({ DATA_PLANE_WORKERS: "3", REDIS_URL: "redis://127.0.0.1:6379" }, 2), { workers: 3 });
});

test("more than one worker without Redis, or a value that is not a count, stops startup with one sentence", () => {
  const noRedis = dataPlaneWorkers({ DATA_PLANE_WORKERS: "2" }, 8);
  assert.match(noRedis.error, /^DATA_PLANE_WORKERS=2 needs REDIS_URL \(or REDIS_SENTINELS\): .+\.$/);
  assert.match(dataPlaneWorkers({ DATA_PLANE_WORKERS: "two" }, 8).error, /whole number/);
  assert.match(dataPlaneWorkers({ DATA_PLANE_WORKERS: "0" }, 8).error, /whole number/);
});

test("DATA_PLANE_IDLE_RELEASE_MS: 6 s unless set, 0 turns the idle release off, anything else stops startup with one sentence", () => {
  assert.deepEqual(idleReleaseQuietMs({}), { ms: 6000 });
  assert.deepEqual(idleReleaseQuietMs({ DATA_PLANE_IDLE_RELEASE_MS: "0" }), { ms: 0 });
  assert.deepEqual(idleReleaseQuietMs({ DATA_PLANE_IDLE_RELEASE_MS: " 12000 " }), { ms: 12_000 });
  assert.match(idleReleaseQuietMs({ DATA_PLANE_IDLE_RELEASE_MS: "soon" }).error, /^DATA_PLANE_IDLE_RELEASE_MS must be .+, not "soon"\.$/);
  assert.match(idleReleaseQuietMs({ DATA_PLANE_IDLE_RELEASE_MS: "-5" }).error, /DATA_PLANE_IDLE_RELEASE_MS/);
});
