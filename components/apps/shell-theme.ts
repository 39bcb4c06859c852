import type { CSSProperties } from "react";
import type { AppConfig } from "@/lib/apps/app-types";

// The shell's colours are CSS variables on its root. Each is a light-dark() pair, so `color-scheme` alone picks
// the mode: `light` or `dark` when the config forces one, `light dark` (the visitor's setting) for `system`.
// A theme's `custom` map is applied last, so it overrides any of them.

type Palette = Record<`--app-${string}`, string>;

const BASE: Palette = {
  "--app-bg": "light-dark(#ffffff, #020617)",
  "--app-surface": "light-dark(#f8fafc, #0b1220)",
  "--app-card": "light-dark(#ffffff, #0f172a)",
  "--app-fg": "light-dark(#0f172a, #f1f5f9)",
  "--app-muted": "light-dark(#475569, #a3b1c6)",
  "--app-border": "light-dark(#e2e8f0, #1e293b)",
  "--app-accent": "light-dark(#4f46e5, #818cf8)",
  "--app-accent-soft": "light-dark(#eef2ff, #1e1b4b)",
  "--app-accent-strong": "light-dark(#3730a3, #c7d2fe)",
};

/** Accent colours by theme preset; an unknown preset keeps the default (indigo). Each pair keeps 4.5:1 contrast. */
export const THEME_PRESETS: Record<string, Palette> = {
  indigo: {},
  emerald: {
    "--app-accent": "light-dark(#047857, #34d399)",
    "--app-accent-soft": "light-dark(#ecfdf5, #022c22)",
    "--app-accent-strong": "light-dark(#065f46, #a7f3d0)",
  },
  rose: {
    "--app-accent": "light-dark(#be123c, #fb7185)",
    "--app-accent-soft": "light-dark(#fff1f2, #4c0519)",
    "--app-accent-strong": "light-dark(#9f1239, #fecdd3)",
  },
  amber: {
    "--app-accent": "light-dark(#b45309, #fbbf24)",
    "--app-accent-soft": "light-dark(#fffbeb, #451a03)",
    "--app-accent-strong": "light-dark(#92400e, #fde68a)",
  },
};

const SAFE_NAME = /^[A-Za-z0-9_-]{1,60}$/;
// A value that could close the declaration would let a config inject other CSS into the style attribute.
const UNSAFE_VALUE = /[;{}<>\\]/;

/** `{ accent: "#0f766e" }` → `{ "--app-accent": "#0f766e" }`; names already starting with `--` are kept. */
export function customProperties(custom: Record<string, string> = {}): Palette {
  const out: Palette = {};
  for (const [key, value] of Object.entries(custom)) {
    const name = key.startsWith("--") ? key.slice(2) : `app-${key}`;
    if (!SAFE_NAME.test(name) || UNSAFE_VALUE.test(value) || value.length > 200) continue;
    out[`--${name}` as `--app-${string}`] = value;
  }
  return out;
}

export function shellStyle(theme: AppConfig["theme"]): CSSProperties {
  const mode = theme?.mode ?? "system";
  return {
    colorScheme: mode === "system" ? "light dark" : mode,
    ...BASE,
    ...(theme?.preset ? THEME_PRESETS[theme.preset] : undefined),
    ...customProperties(theme?.custom),
  } as CSSProperties;
}
