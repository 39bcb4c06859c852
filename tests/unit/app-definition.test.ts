// The checks of a stored app's definition (lib/apps/parse-app.ts) and of theme colours (lib/apps/base-app.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { firstUnknownField, parseAppDefinition } from "@/lib/apps/parse-app";
import { isColour } from "@/lib/apps/base-app";
import { ApiError } from "@/lib/http/errors";

function refusal(f: () => unknown): ApiError {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

test("firstUnknownField names the path of a field the parsed value lacks, in objects and lists", () => {
  assert.equal(firstUnknownField({ a: 1 }, { a: 1, b: 2 }), null);
  assert.equal(firstUnknownField({ a: { x: 1, y: 2 } }, { a: { x: 1 } }), "a.y");
  assert.equal(firstUnknownField({ list: [{ ok: 1 }, { ok: 1, extra: 2 }] }, { list: [{ ok: 1 }, { ok: 1 }] }), "list[1].extra");
});

test("a definition gets its type's defaults; unknown fields, views and panels are refused by path", () => {
  const app = parseAppDefinition("Support", { name: "Help" });
  assert.deepEqual(app.defaultViews, ["inbox", "tickets", "knowledge-base", "customers"]);
  assert.equal(app.type === "Support" && app.config.showLiveChat, false);
  assert.equal(refusal(() => parseAppDefinition("Support", { name: "Help", config: { showChat: true } })).field, "config.showChat");
  assert.equal(
    refusal(() => parseAppDefinition("Support", { name: "Help", defaultPanels: ["ticket-queue", "weather"] })).field,
    "defaultPanels[1]",
  );
  assert.equal(refusal(() => parseAppDefinition("Support", { name: "Help", views: {} })).field, "views");
  // A Developer app may show all seven portal views, not only its five defaults.
  assert.deepEqual(parseAppDefinition("Developer", { name: "Portal", defaultViews: ["overview", "logs", "settings"] }).defaultViews, [
    "overview",
    "logs",
    "settings",
  ]);
});

test("theme colours: colours pass, anything that could end the CSS declaration does not", () => {
  for (const ok of ["#fff", "#0f766eCC", "rgb(1 2 3)", "hsl(120deg 50% 50%)", "oklch(0.6 0.1 200 / 50%)", "teal", "light-dark(#fff, #000)"])
    assert.equal(isColour(ok), true, ok);
  for (const bad of ["red; color: blue", "url(https://x.test)", "var(--x)", "#12", "expression(1)", "light-dark(#fff, url(x))", '"red"'])
    assert.equal(isColour(bad), false, bad);
  assert.equal(
    refusal(() => parseAppDefinition("SaaS", { name: "S", theme: { custom: { accent: "red}" } } })).field,
    "theme.custom.accent",
  );
});
