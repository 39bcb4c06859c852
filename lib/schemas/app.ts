import { z } from "zod";
import { APP_TYPE_NAMES } from "@/lib/apps/app-type-names";
import { Environment, Timestamp } from "./common";

// Apps (issue 19): a BaseApp and its type's `config`, stored. The body schema checks the record's own fields;
// the app's part (BaseApp fields, `config`, the Developer app's `views`) is then validated by the type's own schema
// (lib/apps/app-types.ts), whose JSON Schema GET /v1/apps/schemas/{type} serves.

export const AppSlug = z
  .string()
  .regex(
    /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/,
    "must be 3 to 63 lower-case letters, digits or '-', starting and ending with a letter or digit",
  );

export const AppStatus = z.enum(["draft", "published"]);
export const AppTypeName = z.enum(APP_TYPE_NAMES).meta({ id: "AppType" });

const see = "validated by the type's schema: GET /v1/apps/schemas/{type}";
const AppPart = {
  name: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  defaultViews: z
    .array(z.string())
    .optional()
    .meta({ description: `The views the app shows, in order; ${see}` }),
  defaultPanels: z.array(z.string()).optional(),
  navigation: z
    .array(z.record(z.string(), z.unknown()))
    .optional()
    .meta({ description: `NavItem[]; ${see}` }),
  shell: z.record(z.string(), z.unknown()).optional().meta({ description: "{sidebar, header, sidebarCollapsed}" }),
  theme: z.record(z.string(), z.unknown()).optional().meta({ description: "{preset, mode, custom: {name: colour}}" }),
  config: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: `The type's own settings; ${see}` }),
  views: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: "Developer apps only: the props of its views (dashboard, apiKeys, webhooks, usage, logs, docs)" }),
};

const ProductIds = z.array(z.string().max(64)).max(50).meta({ description: "Ids of the business's own products the app presents" });

export const AppCreate = z
  .strictObject({
    type: AppTypeName,
    ...AppPart,
    products: ProductIds.optional(),
    slug: AppSlug.optional().meta({ description: "Deployment-wide unique; made from the name when omitted" }),
    status: AppStatus.optional(),
  })
  .meta({ id: "AppCreate" });
export type AppCreate = z.infer<typeof AppCreate>;

export const AppUpdate = z
  .strictObject({
    type: AppTypeName.optional().meta({ description: "An app's type cannot change; when sent it must be the current one" }),
    name: AppPart.name.optional(),
    description: AppPart.description.unwrap().nullable().optional(),
    defaultViews: AppPart.defaultViews,
    defaultPanels: AppPart.defaultPanels,
    navigation: AppPart.navigation.unwrap().nullable().optional(),
    shell: AppPart.shell.meta({ description: "Merged into the stored shell" }),
    theme: AppPart.theme.unwrap().nullable().optional(),
    config: AppPart.config.meta({ description: "Merged into the stored config (nested objects too; lists are replaced)" }),
    views: AppPart.views,
    products: ProductIds.optional(),
    slug: AppSlug.optional(),
    status: AppStatus.optional(),
  })
  .meta({ id: "AppUpdate" });
export type AppUpdate = z.infer<typeof AppUpdate>;

export const App = z
  .object({
    id: z.string().meta({ example: "app_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" }),
    object: z.literal("app"),
    type: AppTypeName,
    name: z.string(),
    description: z.string().nullable(),
    slug: z.string(),
    status: AppStatus,
    products: z.array(z.string()),
    defaultViews: z.array(z.string()),
    defaultPanels: z.array(z.string()),
    navigation: z.array(z.record(z.string(), z.unknown())).nullable(),
    shell: z.object({ sidebar: z.boolean(), header: z.boolean(), sidebarCollapsed: z.boolean() }),
    theme: z.record(z.string(), z.unknown()).nullable(),
    config: z.record(z.string(), z.unknown()).meta({ description: "With every default of the type applied" }),
    views: z.record(z.string(), z.unknown()).optional().meta({ description: "Developer apps: each view's props with defaults" }),
    environment: Environment,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "App" });
