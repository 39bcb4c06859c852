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

export const Theme = z.object({
  preset: z.string().max(50).optional(),
  mode: z.enum(["light", "dark", "system"]).optional(),
  custom: z.record(z.string(), z.string()).optional(),
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
