import { databaseProvider, db } from "@/lib/db/client";
import { tenantResource } from "@/lib/db/tenant-resource";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { invalidField } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import { emitEvent, withEvents } from "@/lib/events/emit-event";
import { recordAudit } from "@/lib/audit/record-audit";
import type { App as AppRow, Prisma } from "@/generated/prisma-sqlite";
import type { AppCreate, AppUpdate } from "@/lib/schemas/app";
import { APP_TYPE_NAMES } from "./app-type-names";
import type { AppConfig, AppType } from "./app-types";
import { parseAppDefinition } from "./parse-app";
import { appSlugRace, checkAppSlug, freeAppSlug, isConsoleSlug, ownProductIds } from "./app-rules";

// Apps as stored records (issue 19): create, read, list, update and delete, each write in one transaction with its
// `app.*` event, and an audit entry. The app's part is validated by its type's schema (parse-app.ts) and stored with
// the defaults applied, so a read returns what the app will render.

export interface AppCaller {
  auth: AuthContext;
  ip: string | null;
  userAgent: string | null;
  actorType: "api_key" | "oauth_client" | "user" | "cli" | "system";
}

type Json = Record<string, unknown>;
/** What `definition` holds: the parsed app without the columns of its own. */
type Definition = Omit<AppConfig, "type" | "name" | "description">;

export const APP_COLLECTION: CollectionSpec = {
  filters: {
    id: { type: "string" },
    type: { type: "enum", values: APP_TYPE_NAMES },
    status: { type: "enum", values: ["draft", "published"] },
    slug: { type: "string" },
    name: { type: "string" },
    createdAt: { type: "date" },
    updatedAt: { type: "date" },
  },
  sortable: ["createdAt", "updatedAt", "name", "slug", "id"],
  fields: [
    "object",
    "type",
    "name",
    "description",
    "slug",
    "status",
    "products",
    "defaultViews",
    "defaultPanels",
    "navigation",
    "shell",
    "theme",
    "config",
    "views",
    "environment",
    "createdAt",
    "updatedAt",
  ],
  // SQLite's LIKE ignores ASCII case already; PostgreSQL needs to be told.
  search: (terms) => ({
    AND: terms.map((t) => ({ name: { contains: t, ...(databaseProvider() === "postgresql" ? { mode: "insensitive" } : {}) } })),
  }),
};

export function serializeApp(row: AppRow) {
  const { defaultViews, defaultPanels, navigation, shell, theme, config, ...rest } = row.definition as unknown as Definition;
  const views = (rest as { views?: Json }).views;
  return {
    id: row.id,
    object: "app" as const,
    type: row.type as AppType,
    name: row.name,
    description: row.description,
    slug: row.slug,
    status: row.status as "draft" | "published",
    products: row.products as string[],
    defaultViews,
    defaultPanels,
    navigation: navigation ?? null,
    shell,
    theme: theme ?? null,
    config: config as Json,
    ...(views ? { views } : {}),
    environment: row.environment as "test" | "production",
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
type AppView = ReturnType<typeof serializeApp>;

/** The stored row as the app config its shell and portal render. */
export function appConfigOf(row: AppRow): AppConfig {
  return { ...(row.definition as object), type: row.type, name: row.name, description: row.description ?? undefined } as AppConfig;
}

function definitionOf(app: AppConfig): Prisma.InputJsonValue {
  const { type: _t, name: _n, description: _d, ...definition } = app;
  return definition as unknown as Prisma.InputJsonValue;
}

const apps = tenantResource<AppRow>({
  model: () => db.app,
  idKind: "app",
  label: "app",
  collection: APP_COLLECTION,
  serialize: serializeApp,
});

export const getAppOrThrow = (auth: AuthContext, id: string) => apps.getOrThrow(auth, id);
export const listApps = (auth: AuthContext, query: CollectionQuery) => apps.list(auth, query);

function audit(caller: AppCaller, action: string, appId: string, details?: Json) {
  recordAudit({
    businessId: caller.auth.businessId,
    environment: caller.auth.environment,
    actorType: caller.actorType,
    actorId: caller.auth.oauth?.clientId ?? caller.auth.principal.id,
    action,
    targetType: "app",
    targetId: appId,
    ip: caller.ip,
    userAgent: caller.userAgent,
    details,
  });
}

const appEvent = (auth: AuthContext, type: string, app: AppView, previousAttributes?: Json) => ({
  businessId: auth.businessId,
  environment: auth.environment,
  type,
  data: { ...app },
  previousAttributes,
});

export async function createApp(caller: AppCaller, input: AppCreate) {
  const { auth } = caller;
  const { type, products, slug, status, ...part } = input;
  const app = parseAppDefinition(type, part);
  const productIds = await ownProductIds(auth, products ?? []);
  const finalSlug = slug !== undefined ? await checkAppSlug(slug, auth.businessId, null) : await freeAppSlug(app.name, auth.businessId);
  const t = now();
  const view = await withEvents(
    async (tx) => {
      const row = await tx.app.create({
        data: {
          id: newId("app"),
          ...tenantWhere(auth),
          type,
          name: app.name,
          description: app.description ?? null,
          slug: finalSlug,
          status: status ?? "draft",
          products: productIds,
          definition: definitionOf(app),
          createdAt: t,
          updatedAt: t,
        },
      });
      const created = serializeApp(row);
      await emitEvent(appEvent(auth, "app.created", created), tx);
      return created;
    },
    { answer: (created) => created },
  ).catch(appSlugRace);
  audit(caller, "app.created", view.id, { type, slug: view.slug, status: view.status });
  return view;
}

const isPlainObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `patch` over `base`, nested objects merged too; lists and plain values replace; `null` removes the key, so the
 * type's default applies again (a JSON merge patch, RFC 7396).
 */
export function mergeDeep(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch;
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergeDeep(base[k], v);
  }
  return out;
}

/** The stored app as the input it would be parsed from (absent fields left out, not null). */
function storedInput(row: AppRow): Json {
  const out: Json = { name: row.name, ...(row.definition as Json) };
  if (row.description !== null) out.description = row.description;
  for (const k of Object.keys(out)) if (out[k] === null || out[k] === undefined) delete out[k];
  return out;
}

export async function updateApp(caller: AppCaller, id: string, patch: AppUpdate) {
  const { auth } = caller;
  const current = await getAppOrThrow(auth, id);
  const type = current.type as AppType;
  if (patch.type !== undefined && patch.type !== type)
    throw invalidField("type", `An app's type cannot change (this one is a ${type} app).`, "Create a new app of the other type.");
  const { type: _t, products, slug, status, ...part } = patch;
  const candidate = storedInput(current);
  for (const [k, v] of Object.entries(part)) {
    if (v === undefined) continue;
    if (v === null) delete candidate[k];
    else candidate[k] = k === "config" || k === "views" || k === "shell" ? mergeDeep(candidate[k], v) : v;
  }
  const app = parseAppDefinition(type, candidate);
  const data: Prisma.AppUpdateInput = {
    name: app.name,
    description: app.description ?? null,
    definition: definitionOf(app),
    updatedAt: now(),
  };
  if (products !== undefined) data.products = await ownProductIds(auth, products);
  if (slug !== undefined && slug !== current.slug) {
    if (isConsoleSlug(current.slug))
      throw invalidField("slug", "The console app keeps its slug: it is how the console finds it.", "Change its name instead.");
    data.slug = await checkAppSlug(slug, auth.businessId, current.id);
  }
  if (status === "published" && isConsoleSlug(current.slug))
    throw invalidField("status", "The console app is never published: only your team sees it, at /portal.");
  if (status !== undefined) data.status = status;
  const before = serializeApp(current);
  const view = await withEvents(async (tx) => {
    const after = serializeApp(await tx.app.update({ where: { id: current.id }, data }));
    await emitEvent(appEvent(auth, "app.updated", after, changed(before, after)), tx);
    return after;
  }).catch(appSlugRace);
  audit(caller, "app.updated", view.id, { fields: Object.keys(patch) });
  return view;
}

/** The values of `before` whose field changed: an update event's previousAttributes. */
function changed(before: AppView, after: AppView): Json {
  const out: Json = {};
  for (const k of Object.keys(after) as (keyof AppView)[]) {
    if (k !== "updatedAt" && JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = before[k] ?? null;
  }
  return out;
}

export async function deleteApp(caller: AppCaller, id: string) {
  const { auth } = caller;
  const current = await getAppOrThrow(auth, id);
  await withEvents(async (tx) => {
    await tx.app.delete({ where: { id: current.id } });
    await emitEvent(appEvent(auth, "app.deleted", serializeApp(current)), tx);
  });
  audit(caller, "app.deleted", current.id, { type: current.type, slug: current.slug });
}
