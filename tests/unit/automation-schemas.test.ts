// The runtime-validation schemas of the automation resources: every default, enum and range of the spec, the
// cross-field rules, the error each mistake becomes (code, exact field path, a message a person can act on), the
// guards against prototype keys and deep nesting, and the JSON Schema documents generated from them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { zodToApiError } from "@/lib/http/zod-errors";
import { readJsonBody } from "@/lib/http/read-body";
import {
  AUTOMATION_SCHEMAS,
  Agent,
  AgentTeam,
  Workflow,
  WorkflowStep,
  Function,
  Trigger,
  Tool,
  ToolParameter,
  Task,
  ExecutionContext,
  AIModel,
  AgentMemory,
  AgentUpdate,
  TaskUpdate,
  findDependencyCycle,
  AI_PROVIDERS,
  STEP_TYPES,
  TRIGGER_TYPES,
  RUNTIMES,
} from "@/lib/schemas/automation";
import { schemaDocument, schemaIndex, resolveSchemaName } from "@/lib/automation/json-schemas";

const ok = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input, { reportInput: true });
  if (!r.success) assert.fail(`expected valid, got ${JSON.stringify(r.error.issues[0])}`);
  return r.data as any;
};
/** The API error the pipeline would answer with. */
const fails = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input, { reportInput: true });
  if (r.success) assert.fail(`expected invalid: ${JSON.stringify(input).slice(0, 200)}`);
  const e = zodToApiError(r.error!, "body");
  assert.equal(e.status, 400);
  return e;
};
const expectField = (schema: z.ZodType, input: unknown, field: string, code = "INVALID_FIELD", message?: RegExp) => {
  const e = fails(schema, input);
  assert.equal(e.field, field, `field of: ${e.message}`);
  assert.equal(e.code, code, `code of: ${e.message}`);
  if (message) assert.match(e.message, message);
  return e;
};

const model = { provider: "openai", model: "gpt-4o" };
const agent = { name: "Researcher", role: "Finds sources", systemPrompt: "You research.", model };
const step = (id: string, type = "agent", extra: Record<string, unknown> = {}) => ({ id, name: `Step ${id}`, type, config: {}, ...extra });
const workflow = (steps: unknown[], extra: Record<string, unknown> = {}) => ({ name: "Flow", description: "A flow", steps, ...extra });
const fn = {
  name: "resize",
  description: "Resizes images",
  runtime: "nodejs20",
  entrypoint: "src/index.handler",
  source: { type: "inline", value: "export default () => 1" },
};
const trigger = {
  name: "Nightly",
  type: "schedule",
  config: { cron: "0 3 * * *" },
  target: { type: "workflow", id: "wf_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" },
};
const tool = {
  name: "search",
  description: "Web search",
  parameters: [{ name: "query", type: "string", description: "What to look for" }],
};

// ---- defaults ----

test("Agent: timeout 300, maxToolCalls 10, streaming true, model temperature 0.7, memory type session", () => {
  const a = ok(Agent, agent);
  assert.equal(a.timeout, 300);
  assert.equal(a.maxToolCalls, 10);
  assert.equal(a.streaming, true);
  assert.equal(a.model.temperature, 0.7);
  assert.deepEqual(a.memory, { type: "session" });
  assert.equal(ok(AgentMemory, {}).type, "session");
  assert.equal(ok(AIModel, model).temperature, 0.7);
  // Given values win over defaults.
  const b = ok(Agent, {
    ...agent,
    timeout: 60,
    maxToolCalls: 0,
    streaming: false,
    model: { ...model, temperature: 0 },
    memory: { type: "vector", vectorStore: "pg" },
  });
  assert.deepEqual([b.timeout, b.maxToolCalls, b.streaming, b.model.temperature, b.memory.type], [60, 0, false, 0, "vector"]);
});

test("AgentTeam: maxIterations 10", () => {
  assert.equal(
    ok(AgentTeam, { name: "T", purpose: "p", agents: ["agt_a"], orchestration: "sequential", communication: "broadcast" }).maxIterations,
    10,
  );
});

test("Workflow: version 1.0.0, concurrency 1, retry 3 attempts, active true; step retry delay 1000", () => {
  const w = ok(Workflow, workflow([step("a", "agent", { retry: { maxAttempts: 2 } })]));
  assert.equal(w.version, "1.0.0");
  assert.deepEqual(w.concurrency, { maxConcurrent: 1 });
  assert.deepEqual(w.retry, { maxAttempts: 3 });
  assert.equal(w.active, true);
  assert.deepEqual(w.steps[0].retry, { maxAttempts: 2, delay: 1000 });
  assert.equal(w.steps[0].onError, undefined, "no default for onError");
  const given = ok(
    Workflow,
    workflow([step("a")], { concurrency: { queueBehavior: "reject" }, retry: { backoff: "fixed" }, active: false }),
  );
  assert.deepEqual(given.concurrency, { maxConcurrent: 1, queueBehavior: "reject" });
  assert.deepEqual(given.retry, { maxAttempts: 3, backoff: "fixed" });
  assert.equal(given.active, false);
});

test("Function: memory 128, timeout 30, http enabled and cors, schedule disabled in UTC, scaling 0-100 x10, vpc off", () => {
  const f = ok(Function, fn);
  assert.equal(f.memory, 128);
  assert.equal(f.timeout, 30);
  assert.deepEqual(f.http, { enabled: true, cors: true });
  assert.deepEqual(f.scaling, { minInstances: 0, maxInstances: 100, concurrency: 10 });
  assert.deepEqual(f.vpc, { enabled: false });
  assert.equal(f.schedule, undefined, "a schedule needs a cron, so none is made up");
  assert.deepEqual(ok(Function, { ...fn, schedule: { cron: "*/5 * * * *" } }).schedule, {
    enabled: false,
    cron: "*/5 * * * *",
    timezone: "UTC",
  });
  assert.deepEqual(ok(Function, { ...fn, http: { method: "POST", auth: "api_key" } }).http, {
    enabled: true,
    method: "POST",
    cors: true,
    auth: "api_key",
  });
});

test("Trigger: enabled true; a schedule's timezone UTC", () => {
  const t = ok(Trigger, trigger);
  assert.equal(t.enabled, true);
  assert.equal(t.config.timezone, "UTC");
});

test("Tool: requiresConfirmation and dangerous false; a parameter is required unless told", () => {
  const t = ok(Tool, tool);
  assert.equal(t.requiresConfirmation, false);
  assert.equal(t.dangerous, false);
  assert.equal(t.parameters[0].required, true);
  assert.equal(ok(ToolParameter, { name: "n", type: "number", description: "", required: false }).required, false);
});

test("Task and ExecutionContext start pending", () => {
  assert.equal(ok(Task, { title: "Write docs", priority: 2 }).status, "pending");
  assert.equal(ok(ExecutionContext, { input: {} }).status, "pending");
});

// ---- enums and ranges ----

test("enums: every allowed value passes, anything else is a 400 naming the field and the allowed values", () => {
  for (const provider of AI_PROVIDERS) ok(AIModel, { provider, model: "m" });
  assert.deepEqual([...AI_PROVIDERS], ["openai", "anthropic", "google", "mistral", "cohere", "meta", "xai", "local", "custom"]);
  const e = expectField(Agent, { ...agent, model: { provider: "OpenAI", model: "m" } }, "model.provider");
  assert.match(e.suggestion!, /openai, anthropic/);
  for (const runtime of RUNTIMES) ok(Function, { ...fn, runtime });
  expectField(Function, { ...fn, runtime: "node" }, "runtime");
  expectField(Agent, { ...agent, capabilities: ["text", "telepathy"] }, "capabilities[1]");
  expectField(Agent, { ...agent, memory: { type: "forever" } }, "memory.type", "INVALID_TYPE");
  expectField(
    AgentTeam,
    { name: "T", purpose: "p", agents: ["agt_a"], orchestration: "anarchy", communication: "broadcast" },
    "orchestration",
  );
  expectField(Workflow, workflow([step("a", "agent", { onError: "ignore" })]), "steps[0].onError");
  expectField(Workflow, workflow([step("a")], { concurrency: { queueBehavior: "drop" } }), "concurrency.queueBehavior");
  expectField(Tool, { ...tool, category: "magic" }, "category");
  expectField(Tool, { ...tool, parameters: [{ name: "q", type: "date", description: "" }] }, "parameters[0].type", "INVALID_TYPE");
  expectField(Task, { title: "t", priority: 1, status: "done" }, "status");
  expectField(ExecutionContext, { input: 1, status: "finished" }, "status");
  expectField(Function, { ...fn, http: { auth: "basic" } }, "http.auth");
  expectField(Trigger, { ...trigger, target: { type: "tool", id: "tool_x" } }, "target.type", "INVALID_TYPE");
});

test("step and trigger types: each one is accepted; a wrong or missing type says which types exist", () => {
  for (const type of STEP_TYPES)
    ok(WorkflowStep, step("a", type, type === "webhook" ? { config: { url: "https://example.com/hook" } } : {}));
  let e = expectField(
    Workflow,
    workflow([step("a"), step("b", "agnt")]),
    "steps[1].type",
    "INVALID_TYPE",
    /'agnt' is not a step type.*agent, tool, condition/,
  );
  e = expectField(Workflow, workflow([{ id: "a", name: "A", config: {} }]), "steps[0].type", "MISSING_REQUIRED_FIELD", /needs a 'type'/);
  for (const type of TRIGGER_TYPES) ok(Trigger, { ...trigger, type, config: type === "schedule" ? { cron: "@daily" } : {} });
  e = expectField(Trigger, { ...trigger, type: "cron" }, "type", "INVALID_TYPE", /webhook, schedule, event/);
  assert.ok(e);
});

test("ranges: temperature 0-2, topP 0-1, priority 0-4, memory 128-10240 MB, timeouts and counts positive", () => {
  ok(AIModel, { ...model, temperature: 0 });
  ok(AIModel, { ...model, temperature: 2 });
  expectField(Agent, { ...agent, model: { ...model, temperature: 2.1 } }, "model.temperature", "INVALID_FIELD", /between 0 and 2/);
  expectField(Agent, { ...agent, model: { ...model, temperature: -0.1 } }, "model.temperature");
  expectField(Agent, { ...agent, model: { ...model, topP: 1.5 } }, "model.topP", "INVALID_FIELD", /between 0 and 1/);
  expectField(Agent, { ...agent, model: { ...model, maxTokens: 0 } }, "model.maxTokens");
  for (const priority of [0, 1, 2, 3, 4]) ok(Task, { title: "t", priority });
  for (const priority of [-1, 5, 2.5, "2"]) expectField(Task, { title: "t", priority }, "priority", "INVALID_FIELD");
  assert.match(fails(Task, { title: "t", priority: 7 }).message, /0 \(critical\) to 4 \(backlog\)/);
  expectField(Task, { title: "t" }, "priority", "MISSING_REQUIRED_FIELD");
  expectField(Function, { ...fn, memory: 64 }, "memory", "INVALID_FIELD", /128 to 10240 MB/);
  expectField(Function, { ...fn, timeout: 0 }, "timeout");
  expectField(Function, { ...fn, scaling: { maxInstances: 0 } }, "scaling.maxInstances");
  expectField(Agent, { ...agent, timeout: 0 }, "timeout");
  expectField(Agent, { ...agent, maxToolCalls: -1 }, "maxToolCalls");
  expectField(
    AgentTeam,
    { name: "T", purpose: "p", agents: ["agt_a"], orchestration: "sequential", communication: "broadcast", maxIterations: 0 },
    "maxIterations",
  );
  expectField(Workflow, workflow([step("a", "agent", { retry: { delay: -1 } })]), "steps[0].retry.delay");
  expectField(Workflow, workflow([step("a")], { version: "v1" }), "version", "INVALID_FIELD", /semantic version/);
  expectField(Task, { title: "t", priority: 1, dueDate: "tomorrow" }, "dueDate", "INVALID_FIELD", /ISO 8601/);
  ok(Task, { title: "t", priority: 1, dueDate: "2026-03-01T09:00:00+01:00" });
});

// ---- required fields and strictness ----

test("required fields are MISSING_REQUIRED_FIELD with their path; unknown fields are INVALID_FIELD", () => {
  expectField(Agent, { ...agent, systemPrompt: undefined }, "systemPrompt", "MISSING_REQUIRED_FIELD");
  expectField(Agent, { ...agent, model: { provider: "openai" } }, "model.model", "MISSING_REQUIRED_FIELD");
  expectField(Workflow, { name: "W", description: "" }, "steps", "MISSING_REQUIRED_FIELD");
  expectField(Workflow, workflow([]), "steps", "INVALID_FIELD", /at least one step/);
  expectField(ExecutionContext, {}, "input", "MISSING_REQUIRED_FIELD");
  ok(ExecutionContext, { input: null });
  expectField(Agent, { ...agent, nmae: "typo" }, "nmae", "INVALID_FIELD", /Unknown field 'nmae'/);
  expectField(Workflow, workflow([step("a", "agent", { cofnig: {} })]), "steps[0].cofnig", "INVALID_FIELD", /Unknown field/);
  expectField(Agent, { ...agent, name: "   " }, "name", "INVALID_FIELD", /must not be empty/);
  expectField(Agent, { ...agent, name: "x".repeat(201) }, "name", "INVALID_FIELD", /at most 200 characters/);
  const notObject = fails(Agent, [agent]);
  assert.deepEqual([notObject.code, notObject.field], ["INVALID_FIELD", undefined]);
  assert.match(notObject.message, /expected object/);
});

test("$type may be omitted, must name the kind when given; Tool has none; $id is read-only", () => {
  assert.equal(ok(Agent, { $type: "Agent", ...agent }).$type, "Agent");
  const e = expectField(Agent, { $type: "Workflow", ...agent }, "$type", "INVALID_FIELD", /must be 'Agent'.*got 'Workflow'/);
  assert.ok(e);
  expectField(Task, { $type: "task", title: "t", priority: 1 }, "$type");
  expectField(Tool, { $type: "Tool", ...tool }, "$type", "INVALID_FIELD", /Unknown field/);
  assert.equal(ok(Agent, { $id: "agt_x", ...agent }).$id, "agt_x");
  const json = schemaDocument("Agent", "https://api.example.test") as any;
  assert.equal(json.properties.$id.readOnly, true);
});

// ---- cross-field rules ----

test("workflow: step ids are unique", () => {
  expectField(
    Workflow,
    workflow([step("a"), step("b"), step("a")]),
    "steps[2].id",
    "INVALID_FIELD",
    /repeats the step id 'a' of steps\[0\]/,
  );
});

test("workflow: startStep and fallbackStep name existing steps", () => {
  ok(Workflow, workflow([step("a"), step("b")], { startStep: "b" }));
  expectField(Workflow, workflow([step("a"), step("b")], { startStep: "c" }), "startStep", "INVALID_FIELD", /'c' names no step.*a, b/);
  expectField(
    Workflow,
    workflow([step("a", "agent", { onError: "fallback", fallbackStep: "zz" }), step("b")]),
    "steps[0].fallbackStep",
    "INVALID_FIELD",
    /'zz' names no step/,
  );
  expectField(
    Workflow,
    workflow([step("a", "agent", { onError: "fallback", fallbackStep: "a" })]),
    "steps[0].fallbackStep",
    "INVALID_FIELD",
    /itself/,
  );
});

test("workflow: onError 'fallback' requires fallbackStep", () => {
  ok(Workflow, workflow([step("a", "agent", { onError: "fallback", fallbackStep: "b" }), step("b")]));
  expectField(
    Workflow,
    workflow([step("a"), step("b", "tool", { onError: "fallback" })]),
    "steps[1].fallbackStep",
    "MISSING_REQUIRED_FIELD",
    /onError 'fallback'.*fallbackStep/,
  );
  expectField(WorkflowStep, step("x", "agent", { onError: "fallback" }), "fallbackStep", "MISSING_REQUIRED_FIELD");
});

test("workflow: condition, loop and parallel steps name existing steps", () => {
  ok(
    Workflow,
    workflow([
      step("a", "condition", { config: { expression: "x > 1", then: "b", else: "c" } }),
      step("b"),
      step("c", "parallel", { config: { steps: ["a", "b"] } }),
    ]),
  );
  expectField(Workflow, workflow([step("a", "condition", { config: { then: "b", else: "nope" } }), step("b")]), "steps[0].config.else");
  expectField(Workflow, workflow([step("a"), step("b", "loop", { config: { steps: ["a", "missing"] } })]), "steps[1].config.steps[1]");
  expectField(
    Workflow,
    workflow([step("a"), step("b", "parallel", { config: { steps: ["b"] } })]),
    "steps[1].config.steps[0]",
    "INVALID_FIELD",
    /cannot contain itself/,
  );
  expectField(
    Workflow,
    workflow([step("a"), step("b", "parallel", { config: { steps: ["a", "a"] } })]),
    "steps[1].config.steps[1]",
    "INVALID_FIELD",
    /repeats/,
  );
});

test("workflow: a step's config is checked by its type, with the exact path (steps[2].config.url)", () => {
  const steps = [step("a"), step("b", "tool"), step("c", "webhook", { config: { url: "not a url" } })];
  const e = expectField(Workflow, workflow(steps), "steps[2].config.url", "INVALID_FIELD", /http\(s\) URL/);
  assert.match(e.message, /^Invalid field 'steps\[2\]\.config\.url'/);
  expectField(Workflow, workflow([step("a", "webhook", { config: { url: "ftp://example.com/x" } })]), "steps[0].config.url");
  expectField(Workflow, workflow([step("a", "webhook")]), "steps[0].config.url", "MISSING_REQUIRED_FIELD");
  expectField(
    Workflow,
    workflow([step("a", "webhook", { config: { url: "https://example.com", method: "FETCH" } })]),
    "steps[0].config.method",
  );
  expectField(Workflow, workflow([step("a", "wait", { config: { duration: -5 } })]), "steps[0].config.duration");
  expectField(Workflow, workflow([step("a", "agent", { input: { q: 5 } })]), "steps[0].input.q", "INVALID_FIELD", /string/);
  const w = ok(Workflow, workflow([step("a", "webhook", { config: { url: "https://example.com/hook", extra: { kept: true } } })]));
  assert.deepEqual(
    w.steps[0].config,
    { url: "https://example.com/hook", method: "POST", extra: { kept: true } },
    "configs keep fields of their own",
  );
});

test("workflow: notification URLs, embedded triggers and their crons are checked", () => {
  expectField(
    Workflow,
    workflow([step("a")], { notifications: { onFailure: ["https://ok.example.com", "mailto:x"] } }),
    "notifications.onFailure[1]",
  );
  ok(Workflow, workflow([step("a")], { triggers: [{ name: "Daily", type: "schedule", config: { cron: "@daily" } }] }));
  expectField(
    Workflow,
    workflow([step("a")], { triggers: [{ name: "Bad", type: "schedule", config: { cron: "* * *" } }] }),
    "triggers[0].config.cron",
    "INVALID_FIELD",
    /5 fields/,
  );
});

test("team: a hierarchical team names a manager that is one of its agents; agents are unique", () => {
  const team = { name: "T", purpose: "p", agents: ["agt_a", "agt_b"], orchestration: "hierarchical", communication: "directed" };
  ok(AgentTeam, { ...team, manager: "agt_a" });
  expectField(AgentTeam, team, "manager", "MISSING_REQUIRED_FIELD", /hierarchical team needs a 'manager'/);
  expectField(AgentTeam, { ...team, manager: "agt_c" }, "manager", "INVALID_FIELD", /not one of the team's agents/);
  expectField(AgentTeam, { ...team, orchestration: "parallel", manager: "agt_c" }, "manager");
  expectField(AgentTeam, { ...team, agents: ["agt_a", "agt_a"], manager: "agt_a" }, "agents[1]", "INVALID_FIELD", /repeats/);
  expectField(AgentTeam, { ...team, agents: [] }, "agents", "INVALID_FIELD", /at least one agent/);
});

test("cron expressions are valid in function schedules and schedule triggers, as are time zones", () => {
  expectField(Function, { ...fn, schedule: { cron: "0 25 * * *" } }, "schedule.cron", "INVALID_FIELD", /hour value 25/);
  expectField(
    Function,
    { ...fn, schedule: { cron: "*/5 * * * *", timezone: "Mars/Olympus" } },
    "schedule.timezone",
    "INVALID_FIELD",
    /IANA time zone/,
  );
  expectField(Function, { ...fn, schedule: {} }, "schedule.cron", "MISSING_REQUIRED_FIELD");
  expectField(Trigger, { ...trigger, config: { cron: "0 0 30 2 *" } }, "config.cron", "INVALID_FIELD", /never runs/);
  expectField(Trigger, { ...trigger, config: {} }, "config.cron", "MISSING_REQUIRED_FIELD");
  ok(Trigger, { ...trigger, config: { cron: "0 9 * * MON-FRI", timezone: "Europe/Berlin" } });
});

test("function: scaling, vpc and source rules", () => {
  expectField(
    Function,
    { ...fn, scaling: { minInstances: 5, maxInstances: 2 } },
    "scaling.minInstances",
    "INVALID_FIELD",
    /more than maxInstances/,
  );
  expectField(Function, { ...fn, vpc: { enabled: true } }, "vpc.subnetIds", "MISSING_REQUIRED_FIELD");
  ok(Function, { ...fn, vpc: { enabled: true, subnetIds: ["subnet-1"] } });
  expectField(Function, { ...fn, source: { type: "url", value: "file:///etc/passwd" } }, "source.value");
  expectField(Function, { ...fn, env: { "1BAD": "x" } }, "env.1BAD", "INVALID_FIELD", /environment variable name/);
  expectField(Function, { ...fn, secrets: ["API_KEY", "API_KEY"] }, "secrets[1]", "INVALID_FIELD", /repeats/);
});

test("tool parameters: unique names; a default fits the type and the enum; enum only for strings", () => {
  expectField(Tool, { ...tool, parameters: [tool.parameters[0], tool.parameters[0]] }, "parameters[1].name", "INVALID_FIELD", /repeats/);
  expectField(
    Tool,
    { ...tool, parameters: [{ name: "n", type: "number", description: "", default: "ten" }] },
    "parameters[0].default",
    "INVALID_FIELD",
    /must be a number/,
  );
  expectField(
    Tool,
    { ...tool, parameters: [{ name: "c", type: "string", description: "", enum: ["a", "b"], default: "c" }] },
    "parameters[0].default",
    "INVALID_FIELD",
    /enum values/,
  );
  expectField(Tool, { ...tool, parameters: [{ name: "n", type: "number", description: "", enum: ["1"] }] }, "parameters[0].enum");
  ok(Tool, {
    ...tool,
    parameters: [
      { name: "c", type: "string", description: "", enum: ["a", "b"], default: "a" },
      { name: "o", type: "object", description: "", default: { x: 1 } },
    ],
  });
});

test("task: dependencies are unique and never the task itself; cycles among tasks are found", () => {
  expectField(Task, { title: "t", priority: 1, dependencies: ["task_a", "task_a"] }, "dependencies[1]", "INVALID_FIELD", /repeats/);
  expectField(
    Task,
    { $id: "task_self", title: "t", priority: 1, dependencies: ["task_a", "task_self"] },
    "dependencies[1]",
    "INVALID_FIELD",
    /itself/,
  );
  assert.equal(findDependencyCycle([{ $id: "a", dependencies: ["b"] }, { $id: "b", dependencies: ["c"] }, { $id: "c" }]), null);
  assert.deepEqual(
    findDependencyCycle([
      { $id: "a", dependencies: ["b"] },
      { $id: "b", dependencies: ["c"] },
      { $id: "c", dependencies: ["a"] },
    ]),
    ["a", "b", "c", "a"],
  );
  assert.deepEqual(findDependencyCycle([{ $id: "x", dependencies: ["x"] }]), ["x", "x"]);
});

test("execution: endedAt not before startedAt; not its own parent", () => {
  expectField(
    ExecutionContext,
    { input: 1, startedAt: "2026-01-02T00:00:00Z", endedAt: "2026-01-01T00:00:00Z" },
    "endedAt",
    "INVALID_FIELD",
    /before startedAt/,
  );
  expectField(ExecutionContext, { $id: "exec_1", input: 1, parentId: "exec_1" }, "parentId");
});

// ---- update bodies ----

test("update bodies: every field optional, no defaults filled in, null clears optional fields only", () => {
  assert.deepEqual(ok(AgentUpdate, {}), {});
  assert.deepEqual(ok(AgentUpdate, { timeout: null }), { timeout: null });
  expectField(AgentUpdate, { name: null }, "name");
  expectField(AgentUpdate, { timeout: 0 }, "timeout");
  expectField(AgentUpdate, { bogus: 1 }, "bogus", "INVALID_FIELD", /Unknown field/);
  expectField(AgentUpdate, { $id: "agt_x" }, "$id", "INVALID_FIELD", /Unknown field/);
  expectField(TaskUpdate, { status: null }, "status");
  expectField(TaskUpdate, { status: "finished" }, "status");
});

// ---- bad input ----

test("prototype keys anywhere in a document are a 400 at their path, and nothing global changes", async () => {
  const before = Object.getOwnPropertyNames(Object.prototype).sort();
  const bodies = [
    `{"name":"A","role":"r","systemPrompt":"p","model":{"provider":"openai","model":"m"},"toolConfig":{"__proto__":{"polluted":true}}}`,
    `{"name":"A","role":"r","systemPrompt":"p","model":{"provider":"openai","model":"m"},"toolConfig":{"x":{"constructor":{"prototype":{"polluted":true}}}}}`,
    `{"__proto__":{"polluted":true},"name":"A","role":"r","systemPrompt":"p","model":{"provider":"openai","model":"m"}}`,
    `{"name":"A","role":"r","systemPrompt":"p","model":{"provider":"openai","model":"m","__proto__":{"temperature":9}}}`,
  ];
  const fields = ["toolConfig.__proto__", "toolConfig.x.constructor", "__proto__", "model.__proto__"];
  for (const [i, raw] of bodies.entries()) {
    // Exactly as the pipeline reads and parses a request body.
    const { value } = await readJsonBody(
      new Request("http://x/v1/agents", { method: "POST", body: raw, headers: { "content-type": "application/json" } }),
    );
    const e = fails(Agent, value);
    assert.equal(e.code, "INVALID_FIELD");
    assert.equal(e.field, fields[i]);
    assert.match(e.message, /not allowed as a key/);
  }
  for (const [schema, raw, field] of [
    [
      Workflow,
      `{"name":"W","description":"","steps":[{"id":"a","name":"A","type":"agent","config":{},"input":{"__proto__":"x"}}]}`,
      "steps[0].input.__proto__",
    ],
    [
      Workflow,
      `{"name":"W","description":"","steps":[{"id":"a","name":"A","type":"tool","config":{"parameters":{"prototype":{}}}}]}`,
      "steps[0].config.parameters.prototype",
    ],
    [
      Function,
      `{"name":"f","description":"","runtime":"go","entrypoint":"main","source":{"type":"inline","value":"x"},"env":{"constructor":"x"}}`,
      "env.constructor",
    ],
    [Task, `{"title":"t","priority":1,"metadata":{"a":[{"__proto__":{"admin":true}}]}}`, "metadata.a[0].__proto__"],
    [ExecutionContext, `{"input":{"__proto__":{"polluted":1}}}`, "input.__proto__"],
    [TaskUpdate, `{"metadata":{"__proto__":{"x":1}}}`, "metadata.__proto__"],
  ] as const) {
    const e = fails(schema, JSON.parse(raw));
    assert.equal(e.field, field);
  }
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), before);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(({} as Record<string, unknown>).admin, undefined);
});

test("nesting 100 levels deep is a 400 with a clear message, not a stack overflow", () => {
  let deep: unknown = "leaf";
  for (let i = 0; i < 100; i++) deep = { a: deep };
  const e = fails(Agent, { ...agent, toolConfig: deep });
  assert.equal(e.code, "INVALID_FIELD");
  assert.match(e.field!, /^toolConfig(\.a)+$/);
  assert.match(e.message, /nests deeper than 32 levels/);
  let arrays: unknown = 1;
  for (let i = 0; i < 100_000; i++) arrays = [arrays];
  assert.match(fails(Task, { title: "t", priority: 1, metadata: { x: arrays } }).message, /deeper than 32/);
  // Structured fields too: the guard runs before the schema, so no part of the document is walked past level 32.
  let models: unknown = model;
  for (let i = 0; i < 100; i++) models = { provider: "openai", model: models };
  assert.match(fails(Agent, { ...agent, model: models }).message, /deeper than 32/);
  // Within the limit, a structured field nested wrongly fails where it goes wrong.
  assert.equal(fails(Agent, { ...agent, model: { provider: "openai", model: { provider: "openai", model: "m" } } }).field, "model.model");
});

test("values JSON cannot carry are refused when the schemas are used directly", () => {
  assert.match(fails(Task, { title: "t", priority: 1, metadata: { f: () => 1 } }).message, /JSON value/);
  assert.match(fails(ExecutionContext, { input: { n: Number.NaN } }).message, /finite number/);
  assert.match(fails(ExecutionContext, { input: new Date() }).message, /plain JSON object/);
});

// ---- JSON Schema ----

test("every kind and part is a named JSON Schema with the spec's defaults; names resolve leniently", () => {
  const names = Object.keys(AUTOMATION_SCHEMAS);
  assert.deepEqual(names, [
    "Agent",
    "AIModel",
    "AgentMemory",
    "AgentTeam",
    "Workflow",
    "WorkflowStep",
    "Function",
    "Trigger",
    "Tool",
    "ToolParameter",
    "Task",
    "ExecutionContext",
  ]);
  for (const name of names) {
    const doc = schemaDocument(name as keyof typeof AUTOMATION_SCHEMAS, "https://api.example.test") as any;
    assert.equal(doc.$schema, "https://json-schema.org/draft/2020-12/schema");
    assert.equal(doc.$id, `https://api.example.test/v1/schemas/${name}`);
    assert.equal(doc.title, name);
    assert.ok(doc.type === "object" || doc.oneOf, `${name} has a body`);
    // Every reference resolves inside the document.
    for (const [, ref] of JSON.stringify(doc).matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g))
      assert.ok(doc.$defs?.[ref], `${name}: $defs/${ref} missing`);
  }
  const a = schemaDocument("Agent", "x") as any;
  assert.equal(a.properties.timeout.default, 300);
  assert.equal(a.properties.maxToolCalls.default, 10);
  assert.equal(a.properties.streaming.default, true);
  assert.equal(a.$defs.AIModel.properties.temperature.default, 0.7);
  assert.deepEqual([a.$defs.AIModel.properties.temperature.minimum, a.$defs.AIModel.properties.temperature.maximum], [0, 2]);
  assert.deepEqual(a.$defs.AIProvider.enum, [...AI_PROVIDERS]);
  assert.equal(a.additionalProperties, false);
  const f = schemaDocument("Function", "x") as any;
  assert.deepEqual([f.properties.memory.default, f.properties.timeout.default], [128, 30]);
  const t = schemaDocument("Task", "x") as any;
  assert.deepEqual([t.properties.priority.minimum, t.properties.priority.maximum, t.properties.priority.type], [0, 4, "integer"]);
  const s = schemaDocument("WorkflowStep", "x") as any;
  assert.equal(s.oneOf.length, STEP_TYPES.length);
  const index = schemaIndex("x") as any;
  assert.deepEqual(
    Object.keys(index.$defs)
      .filter((k) => names.includes(k))
      .sort(),
    [...names].sort(),
  );
  assert.equal(index.kinds.find((k: any) => k.name === "AgentTeam").endpoint, "/v1/agent-teams");
  for (const alias of ["agent-teams", "AgentTeam", "agent_team", "agentteams"]) assert.equal(resolveSchemaName(alias), "AgentTeam");
  assert.equal(resolveSchemaName("executions"), "ExecutionContext");
  assert.throws(
    () => resolveSchemaName("Robot"),
    (e: any) => e.status === 404 && /Agent, AIModel/.test(e.suggestion),
  );
  assert.throws(
    () => resolveSchemaName("constructor"),
    (e: any) => e.status === 404,
  );
});
