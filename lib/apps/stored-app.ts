import { db } from "@/lib/db/client";
import { APP_TYPES, type AppConfig, type AppType } from "./app-types";
import { appConfigOf } from "./manage-apps";

// A stored app as /apps/{slug} renders it: published, or a draft its own business previews. Parsed again with its
// type's schema, so a default added since the app was stored applies too.

export interface StoredApp {
  id: string;
  slug: string;
  status: "draft" | "published";
  /** The owner: its members see the app's data, everyone else its shell. */
  businessId: string;
  /** The environment the app was created in: its panels read that environment's data. */
  environment: "test" | "production";
  app: AppConfig;
}

export async function loadStoredApp(slug: string, viewerBusinessId: string | null): Promise<StoredApp | null> {
  if (!/^[a-z0-9-]{3,63}$/.test(slug)) return null;
  const row = await db.app.findUnique({ where: { slug } });
  if (!row || (row.status !== "published" && row.businessId !== viewerBusinessId)) return null;
  const parsed = APP_TYPES[row.type as AppType]?.schema.safeParse(appConfigOf(row));
  if (!parsed?.success) return null;
  return {
    id: row.id,
    slug: row.slug,
    status: row.status as StoredApp["status"],
    businessId: row.businessId,
    environment: row.environment === "production" ? "production" : "test",
    app: parsed.data,
  };
}
