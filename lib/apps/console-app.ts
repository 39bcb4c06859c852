import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { withEvents, emitEvent } from "@/lib/events/emit-event";
import { recordAudit } from "@/lib/audit/record-audit";
import type { App as AppRow, Prisma } from "@/generated/prisma-sqlite";
import { DeveloperApp, developerPortalConfig } from "./developer-app";
import { parseAppDefinition } from "./parse-app";
import { consoleSlugOf } from "./app-rules";
import { appConfigOf, serializeApp } from "./manage-apps";

// A business's console (/portal) is drawn from a stored Developer app: its name, theme, the `show…` switches of its
// nav and its views' props. It is an app like any other (listed, edited, PATCHed through /v1/apps), marked by its
// slug (`console-<business>-test|live`, reserved in app-rules.ts) and, like every record, kept per environment.
// Until a business first opens its Apps page in an environment there is no record and the console shows the
// defaults (PORTAL_CONFIG's, when set); the Apps page creates it from those, so it can be edited like any app.

export interface ConsoleApp {
  /** The stored app; null while the business has not created it (the defaults are shown). */
  id: string | null;
  app: DeveloperApp;
}

interface Tenant {
  businessId: string;
  environment: "test" | "production";
}

function consoleOf(row: AppRow): ConsoleApp {
  const parsed = DeveloperApp.safeParse(appConfigOf(row));
  // A stored console that no longer parses (a schema change since) must not lock the business out of its console.
  return { id: row.id, app: parsed.success ? parsed.data : developerPortalConfig() };
}

/** What a new console app starts with: PORTAL_CONFIG's values, else the defaults; a draft presenting no product. */
function initialDefinition() {
  const { type: _t, ...input } = JSON.parse(JSON.stringify(developerPortalConfig())) as Record<string, unknown>;
  return parseAppDefinition("Developer", input);
}

async function create(tenant: Tenant, slug: string): Promise<AppRow> {
  const { type: _t, name, description, ...definition } = initialDefinition();
  const t = now();
  const row = await withEvents(async (tx) => {
    const created = await tx.app.create({
      data: {
        id: newId("app"),
        businessId: tenant.businessId,
        environment: tenant.environment,
        type: "Developer",
        name,
        description: description ?? null,
        slug,
        status: "draft",
        products: [],
        definition: definition as unknown as Prisma.InputJsonValue,
        createdAt: t,
        updatedAt: t,
      },
    });
    await emitEvent({ ...tenant, type: "app.created", data: { ...serializeApp(created) } }, tx);
    return created;
  });
  recordAudit({
    ...tenant,
    actorType: "system",
    action: "app.created",
    targetType: "app",
    targetId: row.id,
    details: { reason: "console opened", slug },
  });
  return row;
}

/** What the console shows: the stored console app, else the defaults (PORTAL_CONFIG's when set). */
export async function readConsoleApp(tenant: Tenant): Promise<ConsoleApp> {
  const found = await db.app.findUnique({ where: { slug: consoleSlugOf(tenant.businessId, tenant.environment) } });
  return found ? consoleOf(found) : { id: null, app: developerPortalConfig() };
}

/** The business's console app in this environment, created from the defaults when there is none yet. */
export async function ensureConsoleApp(tenant: Tenant): Promise<ConsoleApp> {
  const slug = consoleSlugOf(tenant.businessId, tenant.environment);
  const found = await db.app.findUnique({ where: { slug } });
  if (found) return consoleOf(found);
  try {
    return consoleOf(await create(tenant, slug));
  } catch (e) {
    // Two console pages opened at once: the unique slug let one create it; read that one.
    if ((e as { code?: string }).code !== "P2002") throw e;
    return consoleOf(await db.app.findUniqueOrThrow({ where: { slug } }));
  }
}
