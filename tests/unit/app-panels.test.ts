// The registry of what a stored app's views and panels show (lib/apps/panel-registry.ts): every default view and
// panel of the 17 types resolves to a data source with a loader or to one honest sentence, and a visitor who is not
// a member of the app's business gets no data at all (lib/apps/load-panels.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { APP_TYPE_LIST } from "@/lib/apps/app-types";
import { DATA_SOURCES, SOURCE_SCOPE, panelSource, type PanelSource } from "@/lib/apps/panel-registry";
import { PANEL_LOADERS } from "@/lib/apps/panel-data";
import { loadPanels } from "@/lib/apps/load-panels";
import { kindDef } from "@/lib/automation/kinds";
import { isValidScope } from "@/lib/auth/scopes";

const defaultsOf = (type: (typeof APP_TYPE_LIST)[number]) => type.schema.parse({ name: `${type.type} app` });

function check(type: string, name: string, source: PanelSource) {
  if ("empty" in source) {
    const text = source.empty;
    assert.match(text, /^[A-Z].*\.$/, `${type} ${name}: one sentence`);
    assert.equal(text.split(/\.\s/).length, 1, `${type} ${name}: one sentence, got "${text}"`);
    assert.doesNotMatch(text, /lorem|ipsum|placeholder/i);
    assert.doesNotMatch(text, /holds none under this name/, `${type} ${name} has no entry of its own in the registry`);
    return;
  }
  assert.ok((DATA_SOURCES as readonly string[]).includes(source.source), `${type} ${name}: unknown source ${source.source}`);
  if (source.source === "automation") assert.ok(kindDef(source.kind), `${type} ${name}: unknown kind ${source.kind}`);
  else assert.equal(typeof PANEL_LOADERS[source.source], "function", `${type} ${name}: no loader for ${source.source}`);
}

test("every default view and panel of every app type resolves to a data source or an empty state", () => {
  for (const type of APP_TYPE_LIST) {
    const app = defaultsOf(type);
    for (const view of app.defaultViews) check(type.type, view, panelSource(type.type, view, "view"));
    for (const panel of app.defaultPanels) check(type.type, panel, panelSource(type.type, panel, "panel"));
  }
});

test("the data the platform holds is shown by the types the issue names", () => {
  const source = (type: Parameters<typeof panelSource>[0], name: string) => {
    const s = panelSource(type, name);
    return "empty" in s ? "empty" : s.source === "automation" ? `automation:${s.kind}` : s.source;
  };
  assert.equal(source("Dashboard", "metrics"), "metrics");
  assert.equal(source("Dashboard", "charts"), "charts");
  assert.equal(source("Dashboard", "recent-activity"), "events");
  assert.equal(source("Admin", "users"), "team");
  assert.equal(source("Admin", "roles"), "roles");
  assert.equal(source("Admin", "audit-logs"), "audit");
  assert.equal(source("Admin", "recent-activity"), "audit", "Admin's recent activity is its audit log");
  assert.equal(source("SaaS", "billing"), "billing");
  assert.equal(source("SaaS", "team"), "team");
  assert.equal(source("SaaS", "usage"), "quota", "SaaS usage is the plan's quota, the Developer's the traffic chart");
  assert.equal(source("Developer", "usage"), "charts");
  assert.equal(source("Developer", "api-keys"), "keys");
  assert.equal(source("Developer", "recent-requests"), "requests");
  assert.equal(source("Platform", "environments"), "environments");
  assert.equal(source("Agent", "agents"), "automation:Agent");
  assert.equal(source("Workflow", "runs"), "automation:ExecutionContext");
  assert.equal(source("CRM", "deals"), "empty");
  assert.equal(source("Platform", "deployments"), "empty");
});

test("loaders and sources match one to one, and each source's scope is a real scope", () => {
  const loaders = Object.keys(PANEL_LOADERS).sort();
  assert.deepEqual(loaders, DATA_SOURCES.filter((s) => s !== "automation").sort());
  for (const scope of Object.values(SOURCE_SCOPE)) if (scope) assert.ok(isValidScope(scope), scope);
});

test("an unknown name gets a plain empty state, never invented data", () => {
  const s = panelSource("Dashboard", "weather-radar", "panel");
  assert.ok("empty" in s);
  assert.match(s.empty, /^The Weather radar panel would show data from a service connected to this app/);
});

test("someone outside the app's business gets no data: data panels are private, the rest say what would be there", async () => {
  for (const type of APP_TYPE_LIST) {
    const app = defaultsOf(type);
    for (const view of app.defaultViews) {
      const { view: body, panels } = await loadPanels(app, null, view);
      for (const [name, content] of Object.entries(panels)) {
        assert.notEqual(content.state, "data", `${type.type} ${name}`);
        const source = panelSource(app.type, name);
        assert.equal(content.state, "empty" in source ? "empty" : "private", `${type.type} ${name}`);
      }
      if (body) assert.notEqual(body.state, "data", `${type.type} view ${view}`);
    }
  }
});
