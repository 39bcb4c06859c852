// The automation resources through the public API: CRUD of every kind with $id/$type, collection parameters,
// idempotency, test/live separation, resource.* events, references between records, the task and execution state
// machines, the JSON Schema endpoints and bad input (unknown $type, wrong enums, deep nesting, 5 MB bodies,
// prototype keys).
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, collectAll, expectError, request, seedBusiness, type ApiClient } from "../helpers/api";

type Rec = Record<string, any>;

async function created(api: ApiClient, path: string, body: unknown): Promise<Rec> {
  const res = await api.post(path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: expected 201, got ${res.status} ${res.text.slice(0, 500)}`);
  return res.body.data;
}

const model = { provider: "anthropic", model: "claude-sonnet" };
const AGENT = { name: "Researcher", role: "Finds and summarises sources", systemPrompt: "You are a careful researcher.", model };
const step = (id: string, type = "agent", extra: Rec = {}) => ({ id, name: `Step ${id}`, type, config: {}, ...extra });
const WORKFLOW = {
  name: "Onboarding",
  description: "Welcomes a customer",
  steps: [step("greet"), step("notify", "webhook", { config: { url: "https://hooks.example.com/x" } })],
};
const FUNCTION = {
  name: "resize",
  description: "Resizes images",
  runtime: "python311",
  entrypoint: "main.handler",
  source: { type: "git", value: "https://git.example.com/r.git" },
};
const TOOL = {
  name: "search",
  description: "Searches the web",
  category: "web",
  parameters: [{ name: "query", type: "string", description: "What to look for" }],
};

/** A minimal valid body of every kind, with the records it must reference made first. */
async function bodies(api: ApiClient): Promise<Record<string, Rec>> {
  const agent = await created(api, "/v1/agents", AGENT);
  const wf = await created(api, "/v1/workflows", WORKFLOW);
  return {
    agents: AGENT,
    "agent-teams": {
      name: "Desk",
      purpose: "Answers questions",
      agents: [agent.id],
      orchestration: "hierarchical",
      manager: agent.id,
      communication: "directed",
    },
    workflows: WORKFLOW,
    functions: FUNCTION,
    triggers: { name: "Nightly", type: "schedule", config: { cron: "0 3 * * *" }, target: { type: "workflow", id: wf.id } },
    tools: TOOL,
    tasks: { title: "Write the docs", priority: 2 },
    executions: { input: { q: "hello" } },
  };
}

const KINDS: Record<string, { type: string | null; prefix: string; patch: Rec; check: (r: Rec) => void }> = {
  agents: {
    type: "Agent",
    prefix: "agt_",
    patch: { timeout: 60 },
    check: (r) => {
      assert.equal(r.timeout, 300);
      assert.equal(r.maxToolCalls, 10);
      assert.equal(r.streaming, true);
      assert.equal(r.model.temperature, 0.7);
      assert.equal(r.memory.type, "session");
    },
  },
  "agent-teams": { type: "AgentTeam", prefix: "team_", patch: { maxIterations: 3 }, check: (r) => assert.equal(r.maxIterations, 10) },
  workflows: {
    type: "Workflow",
    prefix: "wf_",
    patch: { active: false },
    check: (r) => {
      assert.equal(r.version, "1.0.0");
      assert.equal(r.active, true);
      assert.deepEqual(r.concurrency, { maxConcurrent: 1 });
      assert.deepEqual(r.retry, { maxAttempts: 3 });
      assert.equal(r.steps[1].config.method, "POST");
    },
  },
  functions: {
    type: "Function",
    prefix: "fn_",
    patch: { memory: 256 },
    check: (r) => {
      assert.equal(r.memory, 128);
      assert.equal(r.timeout, 30);
      assert.deepEqual(r.scaling, { minInstances: 0, maxInstances: 100, concurrency: 10 });
      assert.deepEqual(r.http, { enabled: true, cors: true });
      assert.deepEqual(r.vpc, { enabled: false });
    },
  },
  triggers: {
    type: "Trigger",
    prefix: "trg_",
    patch: { enabled: false },
    check: (r) => {
      assert.equal(r.enabled, true);
      assert.equal(r.config.timezone, "UTC");
    },
  },
  tools: {
    type: null,
    prefix: "tool_",
    patch: { dangerous: true },
    check: (r) => {
      assert.equal(r.requiresConfirmation, false);
      assert.equal(r.dangerous, false);
      assert.equal(r.parameters[0].required, true);
    },
  },
  tasks: { type: "Task", prefix: "task_", patch: { priority: 0 }, check: (r) => assert.equal(r.status, "pending") },
  executions: {
    type: "ExecutionContext",
    prefix: "exec_",
    patch: { metadata: { attempt: 2 } },
    check: (r) => {
      assert.equal(r.status, "pending");
      assert.ok(!Number.isNaN(Date.parse(r.startedAt)));
    },
  },
};

async function events(api: ApiClient, type: string, id: string) {
  const res = await api.get(`/v1/events?type=${type}&limit=100`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  return (res.body.data as Rec[]).filter((e) => e.data?.id === id);
}

test("every kind: create (201, defaults, $id/$type), read, list, update, delete, with resource.* events", async () => {
  const biz = await seedBusiness();
  const all = await bodies(biz.test);
  for (const [path, spec] of Object.entries(KINDS)) {
    const body = all[path];
    const res = await biz.test.post(`/v1/${path}`, body);
    assert.equal(res.status, 201, `${path}: ${res.text.slice(0, 400)}`);
    const r = res.body.data;
    assert.ok(r.id.startsWith(spec.prefix) && /^[a-z]+_[0-9A-Z]{26}$/.test(r.id), `${path} id ${r.id}`);
    assert.equal(r.$id, r.id);
    if (spec.type) assert.equal(r.$type, spec.type, path);
    else assert.ok(!("$type" in r), "a tool has no $type");
    assert.equal(r.environment, "test");
    assert.equal(r.createdAt, r.updatedAt);
    spec.check(r);

    const read = await biz.test.get(`/v1/${path}/${r.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data, r, `${path}: what was stored is what is read`);

    const list = await biz.test.get(`/v1/${path}?limit=100`);
    assert.equal(list.status, 200);
    assert.ok(
      list.body.data.some((x: Rec) => x.id === r.id && x.$id === r.id),
      `${path} list`,
    );

    const patched = await biz.test.patch(`/v1/${path}/${r.id}`, spec.patch);
    assert.equal(patched.status, 200, `${path} PATCH: ${patched.text.slice(0, 300)}`);
    for (const [k, v] of Object.entries(spec.patch)) assert.deepEqual(patched.body.data[k], v);
    assert.ok(patched.body.data.updatedAt > r.updatedAt);

    const created = await events(biz.test, "resource.created", r.id);
    assert.equal(created.length, 1, `${path}: one resource.created`);
    assert.equal(created[0].data.$id, r.id);
    const updated = await events(biz.test, "resource.updated", r.id);
    assert.equal(updated.length, 1);
    for (const k of Object.keys(spec.patch)) assert.ok(k in updated[0].previousAttributes, `${path}: previousAttributes.${k}`);
    assert.deepEqual(updated[0].previousAttributes[Object.keys(spec.patch)[0]], r[Object.keys(spec.patch)[0]] ?? null);

    if (path === "workflows" || path === "agents") continue; // referenced by the team and the trigger
    const del = await biz.test.delete(`/v1/${path}/${r.id}`);
    assert.equal(del.status, 204, `${path} DELETE: ${del.text.slice(0, 300)}`);
    assert.equal(del.text, "");
    expectError(await biz.test.get(`/v1/${path}/${r.id}`), 404, "RESOURCE_NOT_FOUND");
    expectError(await biz.test.delete(`/v1/${path}/${r.id}`), 404, "RESOURCE_NOT_FOUND");
    const deleted = await events(biz.test, "resource.deleted", r.id);
    assert.equal(deleted.length, 1);
    assert.equal(deleted[0].data.object, { "agent-teams": "agent_team", executions: "execution" }[path] ?? path.replace(/s$/, ""));
  }
});

test("an id of another kind, or malformed, is a 404", async () => {
  const biz = await seedBusiness();
  const agent = await created(biz.test, "/v1/agents", AGENT);
  expectError(await biz.test.get(`/v1/workflows/${agent.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.get(`/v1/tools/${agent.id.replace("agt_", "tool_")}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.get("/v1/agents/agt_nope"), 404, "RESOURCE_NOT_FOUND");
});

test("PATCH merges the given fields and validates the whole document; null restores a default", async () => {
  const biz = await seedBusiness();
  const a = await created(biz.test, "/v1/agents", { ...AGENT, timeout: 30, color: "#ff0000" });
  const res = await biz.test.patch(`/v1/agents/${a.id}`, { timeout: null, color: null, $type: "Agent" });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.timeout, 300);
  assert.ok(!("color" in res.body.data));
  assert.equal(res.body.data.name, AGENT.name, "untouched fields stay");
  // Nested objects are replaced whole, so a partial model is missing its required fields.
  const partial = expectError(await biz.test.patch(`/v1/agents/${a.id}`, { model: { temperature: 1 } }), 400, "MISSING_REQUIRED_FIELD");
  assert.equal(partial.field, "model.provider");
  expectError(await biz.test.patch(`/v1/agents/${a.id}`, { name: null }), 400, "INVALID_FIELD");
  expectError(await biz.test.patch(`/v1/agents/${a.id}`, { $id: "agt_x" }), 400, "INVALID_FIELD");

  const wf = await created(biz.test, "/v1/workflows", { ...WORKFLOW, startStep: "notify" });
  // Removing the step startStep names breaks a cross-field rule of the merged document.
  const broken = expectError(await biz.test.patch(`/v1/workflows/${wf.id}`, { steps: [step("greet")] }), 400, "INVALID_FIELD");
  assert.equal(broken.field, "startStep");
  assert.match(broken.message, /'notify' names no step/);
  // An empty PATCH changes nothing and emits nothing.
  const same = await biz.test.patch(`/v1/workflows/${wf.id}`, {});
  assert.equal(same.status, 200);
  assert.equal(same.body.data.updatedAt, wf.updatedAt);
  assert.equal((await events(biz.test, "resource.updated", wf.id)).length, 0);
});

test("collections: limit, cursor, offset, filters, sort, fields and q", async () => {
  const biz = await seedBusiness();
  for (let i = 0; i < 12; i++) {
    await created(biz.test, "/v1/tasks", {
      title: `Task ${i}${i === 7 ? " about invoices" : ""}`,
      priority: i % 5,
      assignee: i % 2 ? "ada" : "linus",
    });
  }
  const page = await biz.test.get("/v1/tasks?limit=5");
  assert.equal(page.body.data.length, 5);
  assert.equal(page.body.pagination.total, 12);
  assert.equal(page.body.pagination.hasMore, true);
  const { ids } = await collectAll(biz.test, "/v1/tasks?limit=5");
  assert.equal(new Set(ids).size, 12);
  assert.deepEqual(ids, [...ids].sort().reverse(), "newest first");
  assert.equal((await biz.test.get("/v1/tasks?offset=10")).body.data.length, 2);

  const high = await biz.test.get("/v1/tasks?priority[lte]=1&limit=100");
  assert.ok(high.body.data.length > 0 && high.body.data.every((t: Rec) => t.priority <= 1));
  assert.equal((await biz.test.get("/v1/tasks?assignee=ada&limit=100")).body.data.length, 6);
  assert.equal((await biz.test.get("/v1/tasks?status=pending,in_progress")).body.pagination.total, 12);
  const sorted = await biz.test.get("/v1/tasks?sort=-priority&limit=100");
  const pr = sorted.body.data.map((t: Rec) => t.priority);
  assert.deepEqual(
    pr,
    [...pr].sort((a: number, b: number) => b - a),
  );
  const { ids: sortedIds } = await collectAll(biz.test, "/v1/tasks?sort=priority&limit=4");
  assert.equal(new Set(sortedIds).size, 12, "cursor pages under a custom sort");

  const slim = await biz.test.get("/v1/tasks?fields=title&limit=1");
  assert.deepEqual(Object.keys(slim.body.data[0]).sort(), ["$id", "$type", "id", "title"]);
  const q = await biz.test.get("/v1/tasks?q=INVOICES");
  assert.deepEqual(
    q.body.data.map((t: Rec) => t.title),
    ["Task 7 about invoices"],
  );

  expectError(await biz.test.get("/v1/tasks?colour=red"), 400, "INVALID_FILTER");
  expectError(await biz.test.get("/v1/tasks?status=done"), 400, "INVALID_PARAMETER");
  expectError(await biz.test.get("/v1/tasks?limit=101"), 400, "INVALID_PARAMETER");
  expectError(await biz.test.get("/v1/tasks?sort=title"), 400, "INVALID_PARAMETER");
  expectError(await biz.test.get("/v1/executions?q=x"), 400, "INVALID_PARAMETER");

  await created(biz.test, "/v1/tools", TOOL);
  await created(biz.test, "/v1/tools", { ...TOOL, name: "mailer", category: "communication" });
  const web = await biz.test.get("/v1/tools?category=web");
  assert.deepEqual(
    web.body.data.map((t: Rec) => t.name),
    ["search"],
  );
  assert.equal((await biz.test.get("/v1/tools?name=mailer")).body.data.length, 1);
});

test("POST with an Idempotency-Key creates once and replays the first answer", async () => {
  const biz = await seedBusiness();
  const headers = { "Idempotency-Key": `agent-${Date.now()}` };
  const first = await biz.test.post("/v1/agents", AGENT, headers);
  assert.equal(first.status, 201);
  const again = await biz.test.post("/v1/agents", AGENT, headers);
  assert.equal(again.status, 200);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  assert.equal(again.body.data.id, first.body.data.id);
  assert.equal((await biz.test.get("/v1/agents")).body.pagination.total, 1);
  expectError(await biz.test.post("/v1/agents", { ...AGENT, name: "Other" }, headers), 422, "IDEMPOTENCY_KEY_REUSED");
});

test("test and live keys see only their own environment's records", async () => {
  const biz = await seedBusiness();
  const t = await created(biz.test, "/v1/workflows", WORKFLOW);
  const l = await created(biz.live, "/v1/workflows", WORKFLOW);
  assert.equal(l.environment, "production");
  expectError(await biz.live.get(`/v1/workflows/${t.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.patch(`/v1/workflows/${l.id}`, { active: false }), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.delete(`/v1/workflows/${l.id}`), 404, "RESOURCE_NOT_FOUND");
  assert.deepEqual(
    (await biz.test.get("/v1/workflows")).body.data.map((w: Rec) => w.id),
    [t.id],
  );
  assert.deepEqual(
    (await biz.live.get("/v1/workflows")).body.data.map((w: Rec) => w.id),
    [l.id],
  );
  // References do not cross environments either.
  const e = expectError(
    await biz.test.post("/v1/triggers", { name: "x", type: "manual", config: {}, target: { type: "workflow", id: l.id } }),
    400,
    "INVALID_FIELD",
  );
  assert.equal(e.field, "target.id");
  // Nor businesses.
  const other = await seedBusiness();
  expectError(await other.test.get(`/v1/workflows/${t.id}`), 404, "RESOURCE_NOT_FOUND");
});

test("references: team agents, a trigger's target and task dependencies must exist; in use, they cannot be deleted", async () => {
  const biz = await seedBusiness();
  const agent = await created(biz.test, "/v1/agents", AGENT);
  const missing = agent.id.slice(0, -4) + "ZZZZ";
  let e = expectError(
    await biz.test.post("/v1/agent-teams", {
      name: "T",
      purpose: "p",
      agents: [agent.id, missing],
      orchestration: "sequential",
      communication: "broadcast",
    }),
    400,
    "INVALID_FIELD",
  );
  assert.equal(e.field, "agents[1]");
  assert.match(e.message, /No agent .* exists/);
  e = expectError(
    await biz.test.post("/v1/agent-teams", {
      name: "T",
      purpose: "p",
      agents: ["researcher"],
      orchestration: "sequential",
      communication: "broadcast",
    }),
    400,
    "INVALID_FIELD",
  );
  assert.match(e.message, /not an agent id.*agt_/);
  e = expectError(
    await biz.test.post("/v1/agent-teams", {
      name: "T",
      purpose: "p",
      agents: [agent.id],
      orchestration: "hierarchical",
      communication: "broadcast",
    }),
    400,
    "MISSING_REQUIRED_FIELD",
  );
  assert.equal(e.field, "manager");
  const team = await created(biz.test, "/v1/agent-teams", {
    name: "T",
    purpose: "p",
    agents: [agent.id],
    orchestration: "sequential",
    communication: "broadcast",
  });

  e = expectError(
    await biz.test.post("/v1/triggers", {
      name: "t",
      type: "manual",
      config: {},
      target: { type: "agent", id: "wf_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" },
    }),
    400,
    "INVALID_FIELD",
  );
  assert.equal(e.field, "target.id");
  const trg = await created(biz.test, "/v1/triggers", {
    name: "t",
    type: "event",
    config: { event: "user.signed_up" },
    target: { type: "agent", id: agent.id },
  });

  const del = expectError(await biz.test.delete(`/v1/agents/${agent.id}`), 409, "STATE_CONFLICT");
  assert.deepEqual([...(del.referencedBy as string[])].sort(), [team.id, trg.id].sort());
  assert.equal((await biz.test.delete(`/v1/triggers/${trg.id}`)).status, 204);
  assert.equal((await biz.test.delete(`/v1/agent-teams/${team.id}`)).status, 204);
  assert.equal((await biz.test.delete(`/v1/agents/${agent.id}`)).status, 204);
});

test("task dependencies may not form a cycle", async () => {
  const biz = await seedBusiness();
  const a = await created(biz.test, "/v1/tasks", { title: "A", priority: 1 });
  const b = await created(biz.test, "/v1/tasks", { title: "B", priority: 1, dependencies: [a.id] });
  const c = await created(biz.test, "/v1/tasks", { title: "C", priority: 1, dependencies: [b.id] });
  let e = expectError(await biz.test.patch(`/v1/tasks/${a.id}`, { dependencies: [c.id] }), 400, "INVALID_FIELD");
  assert.equal(e.field, "dependencies[0]");
  assert.match(e.message, new RegExp(`cycle: ${a.id} → ${c.id} → ${b.id} → ${a.id}`));
  e = expectError(await biz.test.patch(`/v1/tasks/${a.id}`, { dependencies: [a.id] }), 400, "INVALID_FIELD");
  assert.match(e.message, /itself/);
  e = expectError(
    await biz.test.post("/v1/tasks", { title: "D", priority: 1, dependencies: [a.id, "task_01JD2Y7X3Q9W6E8R4T5Y7U9I0P"] }),
    400,
    "INVALID_FIELD",
  );
  assert.equal(e.field, "dependencies[1]");
  expectError(await biz.test.delete(`/v1/tasks/${a.id}`), 409, "STATE_CONFLICT");
  assert.equal((await biz.test.patch(`/v1/tasks/${c.id}`, { dependencies: [a.id] })).status, 200, "a diamond is not a cycle");
});

test("task status follows the state machine; an illegal move is 409 naming the current and allowed states", async () => {
  const biz = await seedBusiness();
  const t = await created(biz.test, "/v1/tasks", { title: "Ship", priority: 0 });
  const move = (status: string) => biz.test.patch(`/v1/tasks/${t.id}`, { status });
  const bad = expectError(await move("completed"), 409, "STATE_CONFLICT");
  assert.equal(bad.currentState, "pending");
  assert.deepEqual(bad.allowed, ["in_progress", "cancelled"]);
  assert.match(bad.message, /'pending' cannot move to 'completed'/);
  assert.equal((await move("in_progress")).body.data.status, "in_progress");
  assert.equal((await move("in_progress")).status, 200, "staying put is not a move");
  assert.equal((await move("failed")).body.data.status, "failed");
  assert.equal((await move("pending")).body.data.status, "pending", "failed → pending is a retry");
  await move("in_progress");
  assert.equal((await move("completed")).body.data.status, "completed");
  const final = expectError(await move("cancelled"), 409, "STATE_CONFLICT");
  assert.deepEqual([final.currentState, final.allowed], ["completed", []]);
  expectError(await move("done"), 400, "INVALID_FIELD");
  expectError(await biz.test.patch(`/v1/tasks/${t.id}`, { status: null }), 400, "INVALID_FIELD");
});

test("execution status follows the state machine and records when it ended", async () => {
  const biz = await seedBusiness();
  const x = await created(biz.test, "/v1/executions", { input: null, startedAt: "2026-01-01T00:00:00Z" });
  assert.equal(x.startedAt, "2026-01-01T00:00:00Z");
  const move = (status: string, extra: Rec = {}) => biz.test.patch(`/v1/executions/${x.id}`, { status, ...extra });
  const bad = expectError(await move("completed"), 409, "STATE_CONFLICT");
  assert.deepEqual([bad.currentState, bad.allowed], ["pending", ["running", "cancelled"]]);
  for (const s of ["running", "paused", "running"]) assert.equal((await move(s)).body.data.status, s);
  const done = await move("completed", { output: { answer: 42 } });
  assert.equal(done.status, 200);
  assert.deepEqual(done.body.data.output, { answer: 42 });
  assert.ok(Date.parse(done.body.data.endedAt) >= Date.parse(x.startedAt), "endedAt is set when the run ends");
  expectError(await move("running"), 409, "STATE_CONFLICT");
  // A child names an existing execution as parent, not itself.
  const child = await created(biz.test, "/v1/executions", { input: 1, parentId: x.id, status: "running" });
  assert.equal((await biz.test.get(`/v1/executions?parentId=${x.id}`)).body.data[0].id, child.id);
  const loop = expectError(await biz.test.patch(`/v1/executions/${x.id}`, { parentId: child.id }), 400, "INVALID_FIELD");
  assert.equal(loop.field, "parentId");
  expectError(await biz.test.post("/v1/executions", { input: 1, parentId: "exec_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" }), 400, "INVALID_FIELD");
  expectError(await biz.test.post("/v1/executions", { input: 1, id: "exec_mine" }), 400, "INVALID_FIELD");
});

test("validation errors name the exact field path with an actionable message", async () => {
  const biz = await seedBusiness();
  const steps = [step("a"), step("b", "tool"), step("c", "webhook", { config: { url: "not-a-url" } })];
  let e = expectError(await biz.test.post("/v1/workflows", { ...WORKFLOW, steps }), 400, "INVALID_FIELD");
  assert.equal(e.field, "steps[2].config.url");
  assert.match(e.message, /steps\[2\]\.config\.url.*http\(s\) URL such as/);
  e = expectError(await biz.test.post("/v1/workflows", { ...WORKFLOW, steps: [step("a"), step("a")] }), 400, "INVALID_FIELD");
  assert.equal(e.field, "steps[1].id");
  e = expectError(
    await biz.test.post("/v1/workflows", { ...WORKFLOW, steps: [step("a", "agent", { onError: "fallback" })] }),
    400,
    "MISSING_REQUIRED_FIELD",
  );
  assert.equal(e.field, "steps[0].fallbackStep");
  e = expectError(await biz.test.post("/v1/functions", { ...FUNCTION, schedule: { cron: "0 0 * * * *" } }), 400, "INVALID_FIELD");
  assert.equal(e.field, "schedule.cron");
  assert.match(e.message, /5 fields/);
  e = expectError(await biz.test.post("/v1/agents", { ...AGENT, model: { ...model, temperature: 3 } }), 400, "INVALID_FIELD");
  assert.equal(e.field, "model.temperature");
  e = expectError(await biz.test.post("/v1/tasks", { title: "t" }), 400, "MISSING_REQUIRED_FIELD");
  assert.equal(e.field, "priority");
  assertErrorEnvelope(await biz.test.post("/v1/tasks", { title: "t", priority: 9 }));
});

test("bad input: unknown $type, wrong enums, unknown fields, $id on create", async () => {
  const biz = await seedBusiness();
  let e = expectError(await biz.test.post("/v1/agents", { $type: "Robot", ...AGENT }), 400, "INVALID_FIELD");
  assert.equal(e.field, "$type");
  assert.match(e.message, /must be 'Agent'.*'Robot'/);
  e = expectError(await biz.test.post("/v1/workflows", { $type: "Agent", ...WORKFLOW }), 400, "INVALID_FIELD");
  assert.equal(e.field, "$type");
  e = expectError(await biz.test.post("/v1/agents", { ...AGENT, model: { provider: "skynet", model: "x" } }), 400, "INVALID_FIELD");
  assert.equal(e.field, "model.provider");
  assert.match(e.suggestion ?? "", /openai, anthropic, google, mistral, cohere, meta, xai, local, custom/);
  e = expectError(await biz.test.post("/v1/workflows", { ...WORKFLOW, steps: [step("a", "teleport")] }), 400, "INVALID_TYPE");
  assert.equal(e.field, "steps[0].type");
  e = expectError(
    await biz.test.post("/v1/triggers", { name: "t", type: "sms", config: {}, target: { type: "workflow", id: "wf_x" } }),
    400,
    "INVALID_TYPE",
  );
  assert.equal(e.field, "type");
  e = expectError(await biz.test.post("/v1/agents", { ...AGENT, colour: "red" }), 400, "INVALID_FIELD");
  assert.equal(e.field, "colour");
  e = expectError(await biz.test.post("/v1/agents", { ...AGENT, $id: "agt_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" }), 400, "INVALID_FIELD");
  assert.equal(e.field, "$id");
  assert.match(e.message, /assigned by the server/);
  expectError(await biz.test.post("/v1/tools", { ...TOOL, $type: "Tool" }), 400, "INVALID_FIELD");
  expectError(
    await request("POST", "/v1/agents", { key: biz.testKey, rawBody: "[1,2", headers: { "content-type": "application/json" } }),
    400,
    "INVALID_JSON",
  );
  assert.equal((await biz.test.get("/v1/agents")).body.pagination.total, 0, "nothing was created");
});

test("bad input: 100 levels of nesting is a 400, a 5 MB document a 413, never a 500", async () => {
  const biz = await seedBusiness();
  let deep: unknown = "leaf";
  for (let i = 0; i < 100; i++) deep = { next: deep };
  let e = expectError(await biz.test.post("/v1/agents", { ...AGENT, toolConfig: deep }), 400, "INVALID_FIELD");
  assert.match(e.message, /nests deeper than 32 levels/);
  assert.ok(e.field!.startsWith("toolConfig.next"));
  e = expectError(await biz.test.post("/v1/executions", { input: JSON.parse("[".repeat(100) + "]".repeat(100)) }), 400, "INVALID_FIELD");
  assert.match(e.message, /deeper/);
  // 100,000 levels parse (the body is small) and are refused just the same.
  const res = await request("POST", "/v1/executions", {
    key: biz.testKey,
    rawBody: `{"input":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
    headers: { "content-type": "application/json" },
  });
  assert.equal(res.status, 400, res.text.slice(0, 200));
  assertErrorEnvelope(res);

  const big = JSON.stringify({ ...AGENT, systemPrompt: "a".repeat(5 * 1024 * 1024) });
  const tooBig = await request("POST", "/v1/agents", { key: biz.testKey, rawBody: big, headers: { "content-type": "application/json" } });
  expectError(tooBig, 413, "PAYLOAD_TOO_LARGE");
  const patchBig = await request("PATCH", "/v1/agents/agt_01JD2Y7X3Q9W6E8R4T5Y7U9I0P", {
    key: biz.testKey,
    rawBody: big,
    headers: { "content-type": "application/json" },
  });
  assert.equal(patchBig.status, 413);
  assert.equal((await biz.test.get("/v1/agents")).body.pagination.total, 0);
});

test("bad input: __proto__, constructor and prototype keys are a 400 and pollute nothing", async () => {
  const biz = await seedBusiness();
  const json = (s: string) =>
    request("POST", "/v1/agents", { key: biz.testKey, rawBody: s, headers: { "content-type": "application/json" } });
  const base = JSON.stringify(AGENT).slice(1, -1);
  for (const [raw, field] of [
    [`{${base},"toolConfig":{"__proto__":{"polluted":"yes","isAdmin":true}}}`, "toolConfig.__proto__"],
    [`{${base},"toolConfig":{"x":{"constructor":{"prototype":{"polluted":"yes"}}}}}`, "toolConfig.x.constructor"],
    [`{"__proto__":{"polluted":"yes"},${base}}`, "__proto__"],
    [`{${base},"guardrails":{"prototype":{}}}`, "guardrails.prototype"],
  ] as const) {
    const e = expectError(await json(raw), 400, "INVALID_FIELD");
    assert.equal(e.field, field);
  }
  for (const [path, raw] of [
    ["/v1/tasks", `{"title":"t","priority":1,"metadata":{"__proto__":{"status":"completed"}}}`],
    [
      "/v1/functions",
      `{"name":"f","description":"","runtime":"go","entrypoint":"main","source":{"type":"inline","value":"x"},"env":{"__proto__":"x"}}`,
    ],
    [
      "/v1/workflows",
      `{"name":"w","description":"","steps":[{"id":"a","name":"A","type":"agent","config":{"constructor":{}}}],"variables":{}}`,
    ],
    ["/v1/executions", `{"input":{"a":[{"__proto__":{"polluted":1}}]}}`],
  ] as const) {
    const res = await request("POST", path, { key: biz.testKey, rawBody: raw, headers: { "content-type": "application/json" } });
    expectError(res, 400, "INVALID_FIELD");
  }
  // Nothing was created, and the server's objects are unchanged: a plain record shows none of the injected fields.
  assert.equal((await biz.test.get("/v1/agents")).body.pagination.total, 0);
  const a = await created(biz.test, "/v1/agents", AGENT);
  const t = await created(biz.test, "/v1/tasks", { title: "t", priority: 1 });
  const text = JSON.stringify([a, t, (await biz.test.get(`/v1/agents/${a.id}`)).body]);
  assert.ok(!/polluted|isAdmin/.test(text), text.slice(0, 300));
  assert.equal(t.status, "pending");
  // The same keys in PATCH bodies.
  const patched = await request("PATCH", `/v1/tasks/${t.id}`, {
    key: biz.testKey,
    rawBody: `{"metadata":{"__proto__":{"x":1}}}`,
    headers: { "content-type": "application/json" },
  });
  expectError(patched, 400, "INVALID_FIELD");
});

test("the JSON Schema endpoints are public and serve every kind", async () => {
  const index = await request("GET", "/v1/schemas");
  assert.equal(index.status, 200, index.text.slice(0, 300));
  assert.equal(index.body.$schema, "https://json-schema.org/draft/2020-12/schema");
  for (const name of [
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
  ]) {
    assert.ok(index.body.$defs[name], `${name} missing from /v1/schemas`);
    const one = await request("GET", `/v1/schemas/${name}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.title, name);
    assert.ok(one.body.$id.endsWith(`/v1/schemas/${name}`));
  }
  const wf = await request("GET", "/v1/schemas/workflows");
  assert.equal(wf.body.title, "Workflow");
  assert.equal(wf.body.properties.version.default, "1.0.0");
  assert.equal(wf.body.properties.active.default, true);
  assert.equal(wf.body.$defs.StepRetry.properties.delay.default, 1000);
  const missing = await request("GET", "/v1/schemas/Robot");
  const e = expectError(missing, 404, "RESOURCE_NOT_FOUND");
  assert.match(e.suggestion ?? "", /Workflow/);
  expectError(await request("POST", "/v1/schemas", { body: {} }), 405, "METHOD_NOT_ALLOWED");

  const doc = (await request("GET", "/v1/openapi.json")).body;
  for (const p of ["/v1/agents", "/v1/agents/{id}", "/v1/agent-teams", "/v1/executions/{id}", "/v1/schemas/{kind}"])
    assert.ok(doc.paths[p], p);
  for (const c of ["Agent", "AgentRecord", "Workflow", "WorkflowStep", "ExecutionContext", "ToolParameter", "AIModel"])
    assert.ok(doc.components.schemas[c], c);
  assert.equal(doc.paths["/v1/tasks/{id}"].delete["x-required-scope"], "tasks:delete");
});

test("scopes: each kind has its own read, write and delete scope", async () => {
  const biz = await seedBusiness();
  const key = await created(biz.test, "/v1/api-keys", { name: "tasks reader", scopes: ["tasks:read", "agents:*"] });
  const api = {
    get: (p: string) => request("GET", p, { key: key.key }),
    post: (p: string, body: unknown) => request("POST", p, { key: key.key, body }),
  };
  assert.equal((await api.get("/v1/tasks")).status, 200);
  const e = expectError(await api.post("/v1/tasks", { title: "t", priority: 1 }), 403, "INSUFFICIENT_SCOPE");
  assert.equal(e.requiredScope, "tasks:write");
  assert.equal((await api.post("/v1/agents", AGENT)).status, 201);
  expectError(await api.get("/v1/workflows"), 403, "INSUFFICIENT_SCOPE");
  expectError(await request("GET", "/v1/agents"), 401, "INVALID_API_KEY");
});

test("a record created through the API validates against the schema the API publishes", async () => {
  const biz = await seedBusiness();
  const all = await bodies(biz.test);
  const r = await created(biz.test, "/v1/functions", {
    ...all.functions,
    schedule: { enabled: true, cron: "*/10 * * * *", timezone: "Europe/Berlin" },
    env: { REGION: "eu" },
  });
  // The record minus the server's fields is a valid body again (a copy can be made from a read).
  const { id: _id, $id: _d, environment: _e, createdAt: _c, updatedAt: _u, ...copy } = r;
  const again = await created(biz.test, "/v1/functions", copy);
  assert.deepEqual({ ...again, id: r.id, $id: r.id, createdAt: r.createdAt, updatedAt: r.updatedAt }, r);
});
