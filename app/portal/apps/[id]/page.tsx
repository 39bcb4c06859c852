import Link from "next/link";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/http/errors";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { appHref, businessProducts } from "@/lib/portal/app-editor-data";
import { getAppOrThrow, serializeApp } from "@/lib/apps/manage-apps";
import { appSchemaDocument } from "@/lib/apps/app-json-schemas";
import { isConsoleSlug } from "@/lib/apps/app-rules";
import { fieldsOf } from "@/lib/apps/schema-form";
import { grants } from "@/lib/auth/scopes";
import { Badge } from "@/components/ui/primitives";
import { AppEditor } from "@/components/app-editor/app-editor";

// One app's editor: the form is generated from its type's JSON Schema (the document /v1/apps/schemas/{type} serves),
// the record's own fields and the theme have their own controls.

export const metadata = { title: "App · Developer Portal" };

/** Fields another control owns: the type (fixed), the record's slug, status and products, and the theme. */
const OWN_CONTROLS = ["type", "products", "slug", "status", "theme"];

export default async function AppEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requirePortalContext();
  const { id } = await params;
  const row = await getAppOrThrow(ctx.auth, id).catch((e) => {
    if (e instanceof ApiError && e.status === 404) notFound();
    throw e;
  });
  const app = serializeApp(row);
  const fields = fieldsOf(appSchemaDocument(app.type, ""), undefined, "", OWN_CONTROLS);
  const products = await businessProducts(ctx);
  const isConsole = isConsoleSlug(app.slug);
  const href = isConsole ? "/portal" : appHref(app);
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link href="/portal/apps">← Apps</Link>
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold">{app.name}</h1>
        <Badge tone="info">{app.type}</Badge>
        {isConsole ? <Badge tone="info">Console</Badge> : null}
        <Badge tone={app.status === "published" ? "success" : "neutral"}>{app.status === "published" ? "Published" : "Draft"}</Badge>
        <Link href={href} className="text-sm">
          Open {href}
        </Link>
      </div>
      <AppEditor
        app={app}
        fields={fields}
        products={products}
        isConsole={isConsole}
        canWrite={grants(ctx.auth.scopes, "apps:write")}
        canDelete={grants(ctx.auth.scopes, "apps:delete")}
        href={href}
      />
    </div>
  );
}
