"use client";
import { useState, useTransition } from "react";
import { testMeterAction, type MeterTestResult } from "@/app/portal/meter-actions";
import { Button, Field, Input, Select } from "@/components/ui/primitives";
import type { FormError } from "@/lib/portal/form-errors";

// A metered plan's metrics in the console's plan form (issue 40): each priced per unit, either reported by the
// provider (meter events) or measured by the gateway from each call's answer (a JSON path, the events of an SSE
// stream, a header) or its request. Below them, a test of the measured metrics against a pasted sample answer.

export interface MetricRow {
  name: string;
  amount: string;
  unit: string;
  includedQuantity: string;
  source: "reported" | "response.json" | "response.sse" | "response.header" | "request.json";
  path: string;
  header: string;
  aggregate: "" | "last" | "sum";
}

export const emptyMetric = (): MetricRow => ({
  name: "",
  amount: "",
  unit: "",
  includedQuantity: "",
  source: "reported",
  path: "",
  header: "",
  aggregate: "",
});

const textareaStyle =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/40 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";

/** The message of an error whose API path is one of these (`metrics[0].from.path`), or null. */
function errorAt(error: FormError | null, ...paths: string[]) {
  return error?.path && paths.includes(error.path) ? error.message : null;
}

export function MeteredMetricsFields({
  metrics,
  onChange,
  error,
}: {
  metrics: MetricRow[];
  onChange: (m: MetricRow[]) => void;
  error: FormError | null;
}) {
  const set = (i: number, patch: Partial<MetricRow>) => onChange(metrics.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  const general = error?.field === "metrics" && !/^metrics\[\d+\]\./.test(error.path ?? "") ? error.message : null;

  return (
    <fieldset className="space-y-4 rounded-md border border-slate-200 p-3 md:col-span-3 dark:border-slate-800">
      <legend className="px-1 text-sm font-medium">Metrics</legend>
      {metrics.map((m, i) => {
        const id = `metric-${i}`;
        const at = (f: string) => errorAt(error, `metrics[${i}].${f}`);
        return (
          <div
            key={i}
            className="grid gap-3 border-b border-slate-100 pb-4 last:border-b-0 md:grid-cols-4 dark:border-slate-800"
            data-testid={id}
          >
            <Field label="Metric name" htmlFor={`${id}-name`} error={at("name")}>
              <Input
                id={`${id}-name`}
                value={m.name}
                onChange={(e) => set(i, { name: e.target.value })}
                placeholder="output_tokens"
                invalid={!!at("name")}
              />
            </Field>
            <Field label="Price per unit" htmlFor={`${id}-amount`} error={at("amount")}>
              <Input
                id={`${id}-amount`}
                value={m.amount}
                inputMode="decimal"
                onChange={(e) => set(i, { amount: e.target.value })}
                placeholder="4"
                invalid={!!at("amount")}
              />
            </Field>
            <Field label="Unit" htmlFor={`${id}-unit`} hint="1M tokens: a million per unit." error={at("unit")}>
              <Input
                id={`${id}-unit`}
                value={m.unit}
                onChange={(e) => set(i, { unit: e.target.value })}
                placeholder="1M tokens"
                invalid={!!at("unit")}
              />
            </Field>
            <Field label="Included per month (units)" htmlFor={`${id}-included`} error={at("includedQuantity")}>
              <Input
                id={`${id}-included`}
                value={m.includedQuantity}
                inputMode="numeric"
                onChange={(e) => set(i, { includedQuantity: e.target.value })}
                placeholder="0"
                invalid={!!at("includedQuantity")}
              />
            </Field>
            <Field label="Quantity" htmlFor={`${id}-source`} error={at("from")}>
              <Select id={`${id}-source`} value={m.source} onChange={(e) => set(i, { source: e.target.value as MetricRow["source"] })}>
                <option value="reported">Reported by you (meter events)</option>
                <option value="response.json">Measured from the answer: JSON</option>
                <option value="response.sse">Measured from the answer: SSE stream</option>
                <option value="response.header">Measured from the answer: header</option>
                <option value="request.json">Measured from the request: JSON</option>
              </Select>
            </Field>
            {m.source === "response.header" ? (
              <Field label="Header name" htmlFor={`${id}-header`} error={at("from.name")}>
                <Input
                  id={`${id}-header`}
                  value={m.header}
                  onChange={(e) => set(i, { header: e.target.value })}
                  placeholder="X-Units"
                  invalid={!!at("from.name")}
                />
              </Field>
            ) : m.source !== "reported" ? (
              <Field label="Path" htmlFor={`${id}-path`} hint="Dotted, e.g. usage.output_tokens" error={at("from.path")}>
                <Input
                  id={`${id}-path`}
                  value={m.path}
                  onChange={(e) => set(i, { path: e.target.value })}
                  placeholder="usage.output_tokens"
                  invalid={!!at("from.path")}
                />
              </Field>
            ) : null}
            {m.source === "response.sse" ? (
              <Field label="Events" htmlFor={`${id}-aggregate`}>
                <Select
                  id={`${id}-aggregate`}
                  value={m.aggregate}
                  onChange={(e) => set(i, { aggregate: e.target.value as MetricRow["aggregate"] })}
                >
                  <option value="">The last event that has it</option>
                  <option value="sum">Summed over the events</option>
                </Select>
              </Field>
            ) : null}
            {metrics.length > 1 ? (
              <div className="flex items-end">
                <Button type="button" variant="secondary" onClick={() => onChange(metrics.filter((_, j) => j !== i))}>
                  Remove metric
                </Button>
              </div>
            ) : null}
          </div>
        );
      })}
      {general ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {general}
        </p>
      ) : null}
      {metrics.length < 20 ? (
        <Button type="button" variant="secondary" onClick={() => onChange([...metrics, emptyMetric()])}>
          Add a metric
        </Button>
      ) : null}
      <SampleTest metrics={metrics} />
    </fieldset>
  );
}

function SampleTest({ metrics }: { metrics: MetricRow[] }) {
  const [pending, start] = useTransition();
  const [sample, setSample] = useState("");
  const [contentType, setContentType] = useState("");
  const [headers, setHeaders] = useState("");
  const [request, setRequest] = useState("");
  const [result, setResult] = useState<MeterTestResult | null>(null);
  const [error, setError] = useState<FormError | null>(null);
  const wantsHeaders = metrics.some((m) => m.source === "response.header");
  const wantsRequest = metrics.some((m) => m.source === "request.json");
  const at = (f: string) => (error?.field === f ? error.message : null);
  const metricError = error && error.field === "metrics" ? error.message : null;

  function run() {
    start(async () => {
      const r = await testMeterAction({ metrics, sample, contentType, headers, request });
      if (!r.ok) {
        setResult(null);
        return setError(r.error ?? { message: "Could not test the metrics." });
      }
      setError(null);
      setResult(r.data ?? null);
    });
  }

  return (
    <div className="space-y-3 rounded-md bg-slate-50 p-3 dark:bg-slate-900/50">
      <p className="text-sm font-medium">Test against a sample answer</p>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Paste an answer your API returns (JSON, or an SSE stream of <code>data:</code> events): the measured metrics are read from it as the
        gateway would read a call&apos;s answer. Nothing is saved.
      </p>
      <Field label="Sample answer" htmlFor="meter-sample" error={at("sample")}>
        <textarea
          id="meter-sample"
          rows={5}
          className={textareaStyle}
          value={sample}
          onChange={(e) => setSample(e.target.value)}
          placeholder='{"usage": {"input_tokens": 1200, "output_tokens": 350}}'
          aria-invalid={!!at("sample") || undefined}
        />
      </Field>
      <div className="grid gap-3 md:grid-cols-2">
        <Field
          label="Content type (optional)"
          htmlFor="meter-content-type"
          hint="Empty: guessed from the sample."
          error={at("contentType")}
        >
          <Input
            id="meter-content-type"
            value={contentType}
            onChange={(e) => setContentType(e.target.value)}
            placeholder="application/json"
          />
        </Field>
        {wantsHeaders ? (
          <Field label="Answer headers (one per line)" htmlFor="meter-headers" error={at("headers")}>
            <textarea
              id="meter-headers"
              rows={2}
              className={textareaStyle}
              value={headers}
              onChange={(e) => setHeaders(e.target.value)}
              placeholder="X-Units: 12"
            />
          </Field>
        ) : null}
        {wantsRequest ? (
          <Field label="Sample request body (JSON)" htmlFor="meter-request" error={at("request")}>
            <textarea
              id="meter-request"
              rows={2}
              className={textareaStyle}
              value={request}
              onChange={(e) => setRequest(e.target.value)}
              placeholder='{"max_tokens": 512}'
            />
          </Field>
        ) : null}
      </div>
      {metricError ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {metricError}
        </p>
      ) : error && !["sample", "contentType", "headers", "request"].includes(error.field ?? "") ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error.message}
        </p>
      ) : null}
      <Button type="button" variant="secondary" onClick={run} disabled={pending}>
        {pending ? "Testing…" : "Test the metrics"}
      </Button>
      {result ? (
        <div role="status" aria-label="Sample answer measured" className="overflow-x-auto">
          <p className="mb-1 text-xs text-slate-500 dark:text-slate-400">Read as {result.contentType}.</p>
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
              <tr>
                <th className="py-1 pr-3">Metric</th>
                <th className="py-1 pr-3">Quantity</th>
                <th className="py-1">This call would cost</th>
              </tr>
            </thead>
            <tbody>
              {result.metrics.map((m) => (
                <tr key={m.name} className="border-t border-slate-200 dark:border-slate-800">
                  <td className="py-1 pr-3 font-mono break-all">{m.name}</td>
                  <td className="py-1 pr-3 tabular-nums">{m.quantity.toLocaleString("en-US")}</td>
                  <td className="py-1 tabular-nums">
                    {m.cost} <span className="text-xs text-slate-500 dark:text-slate-400">(per {m.unit}, before any included units)</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
