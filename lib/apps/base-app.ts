import { z } from "zod";

// BaseApp: what every application component shares (the spec's "Application component configuration").
// Each app type adds its own optional `config` object; see the other files in lib/apps.

export type NavItemShape = { label: string; href: string; icon?: string; description?: string; children?: NavItemShape[] };

export const NavItem: z.ZodType<NavItemShape> = z.lazy(() =>
  z.object({
    label: z.string().min(1).max(100),
    href: z.string().min(1).max(500),
    icon: z.string().max(50).optional(),
    description: z.string().max(500).optional(),
    children: z.array(NavItem).max(50).optional(),
  }),
);

export const Shell = z.object({
  sidebar: z.boolean().default(true),
  header: z.boolean().default(true),
  sidebarCollapsed: z.boolean().default(false),
});

// A custom colour goes into a style attribute as a CSS variable, so only a colour may: a hex value, a colour
// function of numbers (rgb, hsl, oklch, …), a colour name, or light-dark() of two of these. Nothing that could end
// the declaration (`;`, quotes, braces, `url(`) passes.
const HEX = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const COLOUR_FUNCTION = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(\s*[0-9.,%\s/+-]*(?:deg|turn|rad|none|[0-9.,%\s/+-])*\)$/;
const COLOUR_NAME = /^[a-zA-Z]{3,30}$/;
const LIGHT_DARK = /^light-dark\(\s*([^,()]+(?:\([^()]*\))?)\s*,\s*([^,()]+(?:\([^()]*\))?)\s*\)$/;

export function isColour(value: string): boolean {
  const v = value.trim();
  if (v.length > 120) return false;
  if (HEX.test(v) || COLOUR_FUNCTION.test(v) || COLOUR_NAME.test(v)) return true;
  const pair = LIGHT_DARK.exec(v);
  return pair !== null && [pair[1], pair[2]].every((c) => !c.trim().startsWith("light-dark") && isColour(c));
}

export const Theme = z.object({
  preset: z.string().max(50).optional(),
  mode: z.enum(["light", "dark", "system"]).optional(),
  custom: z
    .record(
      z.string().regex(/^(?:--)?[A-Za-z][A-Za-z0-9_-]{0,59}$/, "must be a CSS variable name such as 'accent' or '--app-accent'"),
      z.string().refine(isColour, "must be a colour: #rrggbb, rgb(…), hsl(…), oklch(…), a colour name or light-dark(…, …)"),
    )
    .optional(),
});

/** BaseApp fields; `defaults` supplies the app type's default views and panels. */
export function baseApp(defaults: { views: string[]; panels: string[] }) {
  return {
    name: z.string().min(1).max(200),
    description: z.string().max(2000).optional(),
    defaultViews: z.array(z.string()).default(defaults.views),
    defaultPanels: z.array(z.string()).default(defaults.panels),
    navigation: z.array(NavItem).optional(),
    shell: Shell.default({ sidebar: true, header: true, sidebarCollapsed: false }),
    theme: Theme.optional(),
  };
}
