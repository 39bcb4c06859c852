"use client";
import { useState } from "react";
import { THEME_PRESETS } from "@/components/apps/shell-theme";
import { Button, Field, Input, Select } from "@/components/ui/primitives";

// The theme of any app: a preset, a mode and custom colours (each a name, a colour picker and the value as text, so
// any CSS colour can be typed; the server refuses what is not a colour, naming `theme.custom.<name>`).

export interface ThemeValue {
  preset?: string;
  mode?: "light" | "dark" | "system";
  custom?: Record<string, string>;
}

type Row = { key: number; name: string; value: string };

const SUGGESTED = ["accent", "accent-strong", "accent-soft", "bg", "fg", "card", "muted", "border"];
const HEX6 = /^#[0-9a-fA-F]{6}$/;

export function ThemeFields({
  theme,
  onChange,
  errorFor,
}: {
  theme: ThemeValue | null;
  onChange: (theme: ThemeValue | null) => void;
  errorFor: (path: string) => { message: string; path: string } | null;
}) {
  const [rows, setRows] = useState<Row[]>(() => Object.entries(theme?.custom ?? {}).map(([name, value], i) => ({ key: i, name, value })));
  const presets = Object.keys(THEME_PRESETS);
  if (theme?.preset && !presets.includes(theme.preset)) presets.push(theme.preset);

  function emit(next: ThemeValue, nextRows: Row[] = rows) {
    const custom = Object.fromEntries(nextRows.filter((r) => r.name.trim()).map((r) => [r.name.trim(), r.value]));
    const out: ThemeValue = {
      ...(next.preset ? { preset: next.preset } : {}),
      ...(next.mode ? { mode: next.mode } : {}),
      ...(Object.keys(custom).length ? { custom } : {}),
    };
    onChange(Object.keys(out).length ? out : null);
  }
  const setRow = (key: number, change: Partial<Row>) => {
    const next = rows.map((r) => (r.key === key ? { ...r, ...change } : r));
    setRows(next);
    emit(theme ?? {}, next);
  };
  const error = (path: string) => errorFor(path);
  const themeError = error("theme");

  return (
    <fieldset className="space-y-4 rounded-md border border-slate-200 p-3 dark:border-slate-800" data-field="theme">
      <legend className="px-1 text-sm font-semibold">Theme</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Preset" htmlFor="theme-preset" hint="The accent colours; default indigo." error={error("theme.preset")?.message}>
          <Select id="theme-preset" value={theme?.preset ?? ""} onChange={(e) => emit({ ...theme, preset: e.target.value || undefined })}>
            <option value="">Default</option>
            {presets.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Mode" htmlFor="theme-mode" hint="System follows the visitor's setting." error={error("theme.mode")?.message}>
          <Select
            id="theme-mode"
            value={theme?.mode ?? ""}
            onChange={(e) => emit({ ...theme, mode: (e.target.value || undefined) as ThemeValue["mode"] })}
          >
            <option value="">Default (system)</option>
            <option value="light">light</option>
            <option value="dark">dark</option>
            <option value="system">system</option>
          </Select>
        </Field>
      </div>
      <div className="space-y-2">
        <p className="text-sm font-medium">Custom colours</p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Each becomes a CSS variable of the app (<code>accent</code> → <code>--app-accent</code>): a hex value, rgb(…), hsl(…), oklch(…), a
          colour name or light-dark(…, …).
        </p>
        {rows.map((r, i) => {
          const rowError = r.name.trim() ? error(`theme.custom.${r.name.trim()}`) : null;
          const nameId = `theme-colour-name-${r.key}`;
          const valueId = `theme-colour-value-${r.key}`;
          return (
            <div key={r.key} className="space-y-1" data-testid="theme-colour">
              <div className="flex flex-wrap items-end gap-2">
                <div className="min-w-32 flex-1">
                  <label htmlFor={nameId} className="block text-xs font-medium">
                    Colour {i + 1} name
                  </label>
                  <Input id={nameId} value={r.name} list="theme-colour-names" onChange={(e) => setRow(r.key, { name: e.target.value })} />
                </div>
                <input
                  type="color"
                  aria-label={`Pick colour ${i + 1}`}
                  className="h-9 w-12 cursor-pointer rounded border border-slate-300 bg-white dark:border-slate-700 dark:bg-slate-900"
                  value={HEX6.test(r.value) ? r.value : "#000000"}
                  onChange={(e) => setRow(r.key, { value: e.target.value })}
                />
                <div className="min-w-40 flex-1">
                  <label htmlFor={valueId} className="block text-xs font-medium">
                    Colour {i + 1} value
                  </label>
                  <Input
                    id={valueId}
                    value={r.value}
                    invalid={!!rowError}
                    aria-describedby={rowError ? `${valueId}-error` : undefined}
                    onChange={(e) => setRow(r.key, { value: e.target.value })}
                  />
                </div>
                <Button
                  type="button"
                  variant="ghost"
                  onClick={() => {
                    const next = rows.filter((x) => x.key !== r.key);
                    setRows(next);
                    emit(theme ?? {}, next);
                  }}
                >
                  Remove<span className="sr-only"> colour {i + 1}</span>
                </Button>
              </div>
              {rowError ? (
                <p id={`${valueId}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400" data-error-path={rowError.path}>
                  {rowError.message} <code className="text-xs">({rowError.path})</code>
                </p>
              ) : null}
            </div>
          );
        })}
        <datalist id="theme-colour-names">
          {SUGGESTED.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            const used = new Set(rows.map((r) => r.name));
            const name = SUGGESTED.find((s) => !used.has(s)) ?? "";
            const next = [...rows, { key: Date.now(), name, value: "#4f46e5" }];
            setRows(next);
            emit(theme ?? {}, next);
          }}
        >
          Add colour
        </Button>
      </div>
      {themeError && !themeError.path.startsWith("theme.custom.") && !["theme.preset", "theme.mode"].includes(themeError.path) ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400" data-error-path={themeError.path}>
          {themeError.message} <code className="text-xs">({themeError.path})</code>
        </p>
      ) : null}
    </fieldset>
  );
}
