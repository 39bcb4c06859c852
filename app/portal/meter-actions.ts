"use server";
// The console's "Test against a sample answer" (issue 40): the metrics of a metered plan being written, run through
// the gateway's own answer meter (lib/gateway/answer-meter.ts) over a pasted answer, as if a call had returned it.
// Nothing is stored; the result is each metric's quantity and what one such call would cost at the typed price.
import { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { formatPath } from "@/lib/http/zod-errors";
import { answerMeter } from "@/lib/gateway/answer-meter";
import { measuredUnitSize } from "@/lib/billing/price-plan";
import { nanosToDecimal, toNanos } from "@/lib/billing/money";
import { runAction } from "@/lib/portal/run-action";
import { MeteredMetricsForm } from "@/lib/portal/metered-price-form";

const SAMPLE_MAX = 1024 * 1024;

const TestForm = z.object({
  metrics: z.array(z.unknown()),
  sample: z.string().max(SAMPLE_MAX, "Paste at most 1 MB of answer.").default(""),
  contentType: z.string().trim().max(200).default(""),
  headers: z.string().max(10_000).default(""),
  request: z.string().max(SAMPLE_MAX, "Paste at most 1 MB of request.").default(""),
});

export interface MeterTestResult {
  contentType: string;
  metrics: { name: string; source: string; quantity: number; unit: string; cost: string | null }[];
}

function refuse(path: (string | number)[], message: string): never {
  throw new ApiError({ status: 400, type: "validation_error", code: "INVALID_FIELD", field: formatPath(path) || undefined, message });
}

/** A sample that starts with an SSE field is a stream; anything else is read as JSON. */
const guessType = (sample: string) =>
  /^\s*(data|event|id|retry)\s*:/m.test(sample.slice(0, 200)) ? "text/event-stream" : "application/json";

export async function testMeterAction(input: unknown) {
  return runAction(null, async () => {
    const form = TestForm.safeParse(input ?? {});
    if (!form.success) refuse(form.error.issues[0].path as (string | number)[], form.error.issues[0].message);
    const f = form.data;
    const metrics = MeteredMetricsForm.safeParse(f.metrics);
    if (!metrics.success) {
      const issue = metrics.error.issues[0];
      refuse(
        issue.path[0] === "metrics" ? (issue.path as (string | number)[]) : ["metrics", ...(issue.path as (string | number)[])],
        issue.message,
      );
    }
    const measured = metrics.data.filter((m) => m.from);
    if (!measured.length) refuse(["metrics"], "Choose “measured from the answer” for at least one metric to test it.");
    if (!f.sample.trim() && !f.request.trim() && !f.headers.trim()) refuse(["sample"], "Paste a sample answer to test against.");
    const contentType = f.contentType || guessType(f.sample);
    const upstreamHeaders: Record<string, string> = { "content-type": contentType };
    for (const line of f.headers.split(/\r?\n/)) {
      const at = line.indexOf(":");
      if (at <= 0) continue;
      upstreamHeaders[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
    const warnings: string[] = [];
    const meter = answerMeter(
      measured.map((m) => ({ name: m.name, from: m.from! })),
      (w) => warnings.push(w),
    )!;
    if (f.request) meter.request(Buffer.from(f.request, "utf8"));
    meter.headers(upstreamHeaders);
    meter.response(Buffer.from(f.sample, "utf8"));
    const quantities = meter.finish();
    const result: MeterTestResult = {
      contentType,
      metrics: measured.map((m) => {
        const quantity = quantities[m.name] ?? 0;
        const nanos = (toNanos(m.amount) * BigInt(Math.round(quantity))) / BigInt(measuredUnitSize(m.unit));
        return { name: m.name, source: m.from!.source, quantity, unit: m.unit, cost: nanosToDecimal(nanos) };
      }),
    };
    return result;
  });
}
