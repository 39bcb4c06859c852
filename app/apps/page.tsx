import Link from "next/link";
import { APP_TYPE_LIST, humanize } from "@/lib/apps/app-types";
import { Badge, Card } from "@/components/ui/primitives";

// GET /apps: every application type of the spec with its default views and panels, each leading to its shell.

export const metadata = { title: "Application types · Developer Platform" };

export default function AppGallery() {
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-16">
      <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase dark:text-indigo-400">Application components</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Application types</h1>
      <p className="mt-4 max-w-2xl text-lg text-slate-600 dark:text-slate-300">
        Each type is a configuration with defaults: its views, its panels, the shell and the theme. Open one to see its shell drawn from the
        default configuration, with every panel as a placeholder saying what it will show.
      </p>
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Application types">
        {APP_TYPE_LIST.map((t) => (
          <li key={t.type} className="min-w-0">
            <Card className="h-full" title={<Link href={`/apps/${t.slug}`}>{t.type}</Link>}>
              <p className="text-sm text-slate-600 dark:text-slate-300">{t.description}</p>
              <dl className="mt-4 space-y-3 text-sm">
                <div>
                  <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">Default views</dt>
                  <dd className="mt-1 flex flex-wrap gap-1">
                    {t.defaultViews.map((v) => (
                      <Badge key={v}>{humanize(v)}</Badge>
                    ))}
                  </dd>
                </div>
                <div>
                  <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">Default panels</dt>
                  <dd className="mt-1 flex flex-wrap gap-1">
                    {t.defaultPanels.map((p) => (
                      <Badge key={p} tone="info">
                        {humanize(p)}
                      </Badge>
                    ))}
                  </dd>
                </div>
              </dl>
            </Card>
          </li>
        ))}
      </ul>
    </main>
  );
}
