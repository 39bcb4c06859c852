import Link from "next/link";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { ensureConsole } from "@/lib/portal/console-app";
import { appsOfBusiness } from "@/lib/portal/app-editor-data";
import { grants } from "@/lib/auth/scopes";
import { Badge, Card, EmptyState } from "@/components/ui/primitives";
import { NewAppForm } from "@/components/app-editor/new-app-form";

// The business's apps: each with its type, address, status and the products it presents; "New app" opens the editor.

export const metadata = { title: "Apps · Developer Portal" };

const when = (iso: string) => new Date(iso).toISOString().slice(0, 16).replace("T", " ");

export default async function AppsPage() {
  const ctx = await requirePortalContext();
  // The console app is listed like any app, so make sure it exists before listing.
  await ensureConsole(ctx);
  const { apps, products } = await appsOfBusiness(ctx);
  const productName = new Map(products.map((p) => [p.id, p.name]));
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Apps</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Application components built from configuration. A Developer app is a product&apos;s developer portal at{" "}
          <code>/p/&#123;slug&#125;</code>; the others render at <code>/apps/&#123;slug&#125;</code>. Your console is an app too.
        </p>
      </div>
      {grants(ctx.auth.scopes, "apps:write") ? (
        <Card title="New app">
          <NewAppForm products={products} />
        </Card>
      ) : null}
      <Card title="Your apps">
        {apps.length === 0 ? (
          <EmptyState title="No apps yet">Create one above.</EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Apps</caption>
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  {["Name", "Type", "Slug", "Status", "Products", "Updated"].map((h) => (
                    <th key={h} scope="col" className="py-2 pr-3">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {apps.map((a) => (
                  <tr key={a.id} className="border-t border-slate-100 dark:border-slate-800" data-testid={`app-row-${a.slug}`}>
                    <td className="py-2 pr-3 font-medium">
                      <Link href={`/portal/apps/${a.id}`}>{a.name}</Link>
                      {a.console ? (
                        <span className="ml-2">
                          <Badge tone="info">Console</Badge>
                        </span>
                      ) : null}
                    </td>
                    <td className="pr-3">{a.type}</td>
                    <td className="pr-3 font-mono text-xs">
                      {a.console ? <Link href="/portal">/portal</Link> : <Link href={a.href}>{a.href}</Link>}
                    </td>
                    <td className="pr-3">
                      <Badge tone={a.status === "published" ? "success" : "neutral"}>
                        {a.status === "published" ? "Published" : "Draft"}
                      </Badge>
                    </td>
                    <td className="pr-3">{a.products.length ? a.products.map((id) => productName.get(id) ?? id).join(", ") : "—"}</td>
                    <td className="pr-3 whitespace-nowrap tabular-nums">{when(a.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
