// npm run bench:schemas: validates 10,000 generated workflows of 50 steps each with the Workflow schema (the same
// zod schema POST /v1/workflows parses with) on one core, and prints validations per second. Goal: >= 2,000/s.
// Options: --count N (workflows), --steps N (steps per workflow).
import { parseArgs } from "node:util";
import { Workflow, STEP_TYPES } from "@/lib/schemas/automation";

const { values } = parseArgs({ options: { count: { type: "string", default: "10000" }, steps: { type: "string", default: "50" } } });
const COUNT = Number(values.count);
const STEPS = Number(values.steps);
const GOAL = 2_000;

/** A realistic workflow: every step type, configs, inputs, retries, fallbacks and step references. */
function workflow(n: number): unknown {
  const steps = [];
  for (let i = 0; i < STEPS; i++) {
    // The last step waits; the others may point forward to later steps.
    const type = i === STEPS - 1 ? "wait" : STEP_TYPES[i % STEP_TYPES.length];
    const next = `step-${i + 1}`;
    const last = `step-${STEPS - 1}`;
    const config =
      type === "agent"
        ? { agentId: "agt_01JD2Y7X3Q9W6E8R4T5Y7U9I0P", prompt: `Summarise item ${i}` }
        : type === "tool"
          ? { toolId: "tool_01JD2Y7X3Q9W6E8R4T5Y7U9I0P", parameters: { query: "{{input.q}}", limit: 10 } }
          : type === "condition"
            ? { expression: "output.score > 0.5", then: next, else: last }
            : type === "loop"
              ? { items: "input.items", steps: [next], maxIterations: 100 }
              : type === "parallel"
                ? { steps: [...new Set([next, last])], waitFor: "all" }
                : type === "wait"
                  ? { duration: 1000 }
                  : type === "human"
                    ? { prompt: "Approve?", options: ["yes", "no"] }
                    : type === "transform"
                      ? { mapping: { total: "sum(items)" } }
                      : { url: `https://hooks.example.com/${n}/${i}`, method: "POST", headers: { "X-Run": String(n) }, body: { n, i } };
    steps.push({
      id: `step-${i}`,
      name: `Step ${i}`,
      type,
      config,
      input: { q: "{{input.q}}" },
      output: `out${i}`,
      retry: { maxAttempts: 3, backoff: "exponential" },
      onError: i % 5 === 0 && i < STEPS - 1 ? "fallback" : "retry",
      ...(i % 5 === 0 && i < STEPS - 1 ? { fallbackStep: last } : {}),
      timeout: 30_000,
    });
  }
  // Through JSON, as a request body arrives.
  return JSON.parse(
    JSON.stringify({
      $type: "Workflow",
      name: `Workflow ${n}`,
      description: "Generated for the benchmark",
      version: "1.2.3",
      steps,
      startStep: "step-0",
      variables: { region: "eu", threshold: 0.5 },
      triggers: [{ name: "Nightly", type: "schedule", config: { cron: "0 3 * * *", timezone: "Europe/Berlin" } }],
      concurrency: { maxConcurrent: 2, queueBehavior: "queue" },
      retry: { maxAttempts: 3 },
      notifications: { onFailure: ["https://alerts.example.com/hook"] },
    }),
  );
}

const docs = Array.from({ length: COUNT }, (_, i) => workflow(i));
const first = Workflow.safeParse(docs[0]);
if (!first.success) {
  console.error("the generated workflow does not validate:", JSON.stringify(first.error.issues.slice(0, 3)));
  process.exit(1);
}
// Warm up the JIT on a slice, as a long-running server would be.
for (let i = 0; i < Math.min(500, COUNT); i++) Workflow.safeParse(docs[i]);

const cpu0 = process.cpuUsage();
const t0 = performance.now();
let valid = 0;
for (const doc of docs) if (Workflow.safeParse(doc).success) valid++;
const wallS = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const cpuS = (cpu.user + cpu.system) / 1e6;

if (valid !== COUNT) {
  console.error(`${COUNT - valid} of ${COUNT} workflows failed validation`);
  process.exit(1);
}
// Single-threaded: CPU seconds are the time on one core, which other processes on the machine do not inflate.
const perCpu = COUNT / cpuS;
const perWall = COUNT / wallS;
console.log(`validated ${COUNT} workflows of ${STEPS} steps in ${wallS.toFixed(2)} s (${cpuS.toFixed(2)} s CPU on one core)`);
console.log(`validations/s: ${Math.round(perCpu)} per CPU-second, ${Math.round(perWall)} wall-clock`);
console.log(`goal >= ${GOAL}/s on one core: ${perCpu >= GOAL ? "met" : "NOT met"}`);
process.exit(perCpu >= GOAL ? 0 : 1);
