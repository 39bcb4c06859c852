// The editor's form derived from an app type's JSON Schema (lib/apps/schema-form.ts): one generic derivation for every
// type, checked here on the schemas the API serves.
import { test } from "node:test";
import assert from "node:assert/strict";
import { appSchemaDocument } from "@/lib/apps/app-json-schemas";
import { APP_TYPE_LIST } from "@/lib/apps/app-types";
import {
  defaultText,
  fieldForError,
  fieldOf,
  fieldPaths,
  fieldsOf,
  labelOf,
  listText,
  parseList,
  valueAt,
  withValueAt,
  type FormField,
} from "@/lib/apps/schema-form";

const OMIT = ["type", "products", "slug", "status", "theme"] as const;

function find(fields: FormField[], path: string): FormField {
  for (const f of fields) {
    if (f.path === path) return f;
    if (f.kind === "group" && path.startsWith(`${f.path}.`)) return find(f.fields, path);
  }
  throw new Error(`no field ${path}`);
}

const developer = () => fieldsOf(appSchemaDocument("Developer", "http://localhost"), undefined, "", OMIT);

test("labels are made from field names, acronyms kept", () => {
  assert.equal(labelOf("showAPIKeys"), "Show API keys");
  assert.equal(labelOf("retryConfig"), "Retry config");
  assert.equal(labelOf("apiBaseUrl"), "API base URL");
  assert.equal(labelOf("api-keys"), "API keys");
  assert.equal(labelOf("defaultViews"), "Default views");
});

test("the Developer schema gives the BaseApp fields, config and the views' props, with kinds and defaults", () => {
  const fields = developer();
  assert.deepEqual(
    fields.map((f) => f.name),
    ["name", "description", "defaultViews", "defaultPanels", "navigation", "shell", "config", "views"],
  );
  assert.equal(find(fields, "name").kind, "string");
  assert.equal(find(fields, "name").required, true);
  const description = find(fields, "description");
  assert.ok(description.kind === "string" && description.multiline, "a long text is a text area");
  assert.equal(find(fields, "defaultViews").kind, "string-list");
  assert.deepEqual(find(fields, "defaultViews").default, ["overview", "api-keys", "webhooks", "usage", "docs"]);
  assert.equal(find(fields, "navigation").kind, "json", "the recursive NavItem list falls back to JSON");
  assert.equal(find(fields, "shell").kind, "group");
  const webhooks = find(fields, "config.showWebhooks");
  assert.equal(webhooks.kind, "boolean");
  assert.equal(webhooks.default, true);
  assert.equal(webhooks.label, "Show webhooks");
  const periods = find(fields, "views.usage.periods");
  assert.ok(periods.kind === "multi-enum");
  assert.deepEqual(periods.kind === "multi-enum" && periods.options, ["hour", "day", "week", "month"]);
  assert.equal(periods.kind === "multi-enum" && periods.minItems, 1);
  const expiration = find(fields, "views.apiKeys.defaultExpiration");
  assert.ok(expiration.kind === "number" && expiration.integer && expiration.minimum === 1 && expiration.maximum === 3650);
  assert.equal(expiration.default, 90);
  const format = find(fields, "views.docs.format");
  assert.ok(format.kind === "enum" && format.options.includes("markdown"));
  assert.equal(find(fields, "views.webhooks.retryConfig").kind, "group", "nested objects are fieldsets");
  assert.equal(find(fields, "views.webhooks.retryConfig.backoffStrategy").kind, "enum");
  assert.ok(!fields.some((f) => f.name === "type"), "the constant type is not a field");
});

test("every app type derives a form with its config as a group, and no field of an unknown kind", () => {
  const kinds = new Set(["boolean", "enum", "string", "number", "multi-enum", "string-list", "group", "json"]);
  for (const t of APP_TYPE_LIST) {
    const fields = fieldsOf(appSchemaDocument(t.type, "http://localhost"), undefined, "", OMIT);
    const config = fields.find((f) => f.name === "config");
    assert.ok(config && config.kind === "group" && config.fields.length > 0, `${t.type} has config fields`);
    const walk = (list: FormField[]): void =>
      list.forEach((f) => {
        assert.ok(kinds.has(f.kind), `${f.path} of ${t.type}`);
        if (f.kind === "group") walk(f.fields);
      });
    walk(fields);
  }
});

test("a dashboard's enum and list fields are derived with the type's defaults", () => {
  const fields = fieldsOf(appSchemaDocument("Dashboard", "http://localhost"), undefined, "", OMIT);
  const period = find(fields, "config.defaultPeriod");
  assert.ok(period.kind === "enum" && period.options.includes("quarter"));
  assert.equal(period.default, "month");
  assert.equal(find(fields, "config.metrics").kind, "string-list");
  assert.equal(find(fields, "config.realtime").default, false);
});

test("local $refs resolve, shapes without a control become JSON, descriptions are kept", () => {
  const root = {
    $defs: { Colour: { type: "string", description: "A colour" } },
    properties: {},
  };
  const f = fieldOf("accent", { $ref: "#/$defs/Colour" }, root);
  assert.ok(f && f.kind === "string" && f.description === "A colour");
  assert.equal(fieldOf("any", { type: "array", items: { type: "object" } }, root)?.kind, "json");
  assert.equal(fieldOf("map", { type: "object", additionalProperties: { type: "string" } }, root)?.kind, "json");
  assert.equal(fieldOf("kind", { const: "x" }, root), null);
});

test("an error's path finds the most specific field that shows it", () => {
  const paths = fieldPaths(developer());
  assert.ok(paths.includes("views.usage") && paths.includes("views.usage.periods"));
  assert.equal(fieldForError("views.usage.periods[2]", paths), "views.usage.periods");
  assert.equal(fieldForError("config.showDoc", paths), "config");
  assert.equal(fieldForError("name", paths), "name");
  assert.equal(fieldForError("products[0]", paths), null);
  assert.equal(fieldForError(undefined, paths), null);
});

test("values are read and written by path without changing the original", () => {
  const values = { name: "A", config: { showLogs: true } };
  const next = withValueAt(values, "config.showWebhooks", false);
  assert.deepEqual(next, { name: "A", config: { showLogs: true, showWebhooks: false } });
  assert.deepEqual(values.config, { showLogs: true });
  assert.equal(valueAt(next, "config.showWebhooks"), false);
  assert.equal(valueAt(next, "views.usage.periods"), undefined);
  assert.deepEqual(withValueAt(next, "config.showLogs", undefined), { name: "A", config: { showWebhooks: false } });
  assert.deepEqual(withValueAt({}, "views.usage.showCosts", true), { views: { usage: { showCosts: true } } });
});

test("lists and defaults read as text", () => {
  assert.equal(listText(["a", "b"]), "a, b");
  assert.deepEqual(parseList(" a, ,b ,"), ["a", "b"]);
  assert.equal(defaultText(true), "on");
  assert.equal(defaultText([]), "none");
  assert.equal(defaultText(90), "90");
});
