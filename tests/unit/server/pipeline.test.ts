import { test } from "node:test";
import assert from "node:assert/strict";
import { runPipeline, API_PIPELINE, type Pipeline } from "@/lib/server/pipeline";
import { ApiError } from "@/lib/http/errors";
import type { RequestContext } from "@/lib/server/request-context";
import { testContext } from "../../helpers/request-context";

const answer = (ctx: RequestContext) => {
  ctx.response = { status: 200, headers: {}, body: "ok" };
};

test("pipeline: inbound steps run in order, then every outbound step", async () => {
  const seen: string[] = [];
  const step = (name: string) => (_: RequestContext) => {
    seen.push(name);
  };
  const p: Pipeline = {
    inbound: [
      step("a"),
      async (c) => {
        seen.push("b");
        answer(c);
      },
    ],
    onError: () => {
      seen.push("error");
    },
    outbound: [step("x"), step("y")],
  };
  const res = await runPipeline(testContext(), p);
  assert.equal(res.body, "ok");
  assert.deepEqual(seen, ["a", "b", "x", "y"]);
});

test("pipeline: a throwing step stops the inbound ones, onError answers, outbound steps still run", async () => {
  const seen: string[] = [];
  const p: Pipeline = {
    inbound: [
      () => {
        throw new ApiError({ status: 403, type: "authorization_error", code: "X", message: "no" });
      },
      () => {
        seen.push("never");
      },
    ],
    onError: (c, e) => {
      seen.push(`error:${(e as ApiError).code}`);
      c.response = { status: 403, headers: {}, body: null };
    },
    outbound: [
      () => {
        seen.push("out");
      },
    ],
  };
  const res = await runPipeline(testContext(), p);
  assert.equal(res.status, 403);
  assert.deepEqual(seen, ["error:X", "out"]);
});

test("pipeline: a failing outbound step does not change the answer", async () => {
  const p: Pipeline = {
    inbound: [answer],
    onError: () => {},
    outbound: [
      () => {
        throw new Error("log store down");
      },
    ],
  };
  const original = console.error;
  console.error = () => {};
  try {
    const res = await runPipeline(testContext(), p);
    assert.equal(res.status, 200);
  } finally {
    console.error = original;
  }
});

test("pipeline: inbound steps that answer nothing are an error, not a hang", async () => {
  let mapped: unknown;
  const p: Pipeline = {
    inbound: [() => {}],
    onError: (c, e) => {
      mapped = e;
      c.response = { status: 500, headers: {}, body: null };
    },
    outbound: [],
  };
  await runPipeline(testContext(), p);
  assert.ok(mapped instanceof Error);
});

test("pipeline: the API's steps, in the documented order", () => {
  assert.deepEqual(
    API_PIPELINE.inbound.map((s) => s.name),
    [
      "identifyRequest",
      "resolveRequestVersion",
      "authenticate",
      "checkRestrictions",
      "rateLimit",
      "checkScope",
      "checkQuota",
      "parseInput",
      "claimIdempotencyKey",
      "runHandler",
      "writeEnvelope",
      "storeIdempotentResponse",
    ],
  );
  assert.deepEqual(
    API_PIPELINE.outbound.map((s) => s.name),
    ["releaseAdmission", "recordCall"],
  );
});
