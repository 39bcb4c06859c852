import Link from "next/link";
import { GuideList } from "@/components/docs/guide-list";
import { MarkdownTwinLink } from "@/components/docs/markdown-twin-link";
import { routeScope } from "@/lib/docs/reference-markdown";
import { ROUTES } from "@/lib/server/route-table";

export const metadata = { title: "Docs · Developer Platform" };

export default function DocsPage() {
  const tags = [...new Set(ROUTES.map((r) => r.tag))];
  return (
    <main className="mx-auto max-w-4xl px-6 py-12">
      <MarkdownTwinLink href="/docs.md" />
      <h1 className="text-3xl font-bold">API reference</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        Authenticate with <code>Authorization: Bearer sk_test_…</code>. The machine-readable reference is the{" "}
        <a href="/v1/openapi.json">OpenAPI document</a>; every error code is explained under <Link href="/docs/errors">Errors</Link>.
        Third-party applications act for a user&apos;s business with OAuth 2.0 access tokens instead: see{" "}
        <Link href="/docs/oauth">OAuth</Link>.
      </p>
      <section className="mt-10" aria-labelledby="guides">
        <h2 id="guides" className="text-xl font-semibold">
          <Link href="/docs/guides">Guides</Link>
        </h2>
        <GuideList />
      </section>
      {tags.map((tag) => (
        <section key={tag} className="mt-10">
          <h2 className="text-xl font-semibold">{tag}</h2>
          <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label={`${tag} routes`}>
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b border-slate-200 dark:border-slate-800">
                  <th className="py-2">Method</th>
                  <th>Path</th>
                  <th>What it does</th>
                  <th>Scope</th>
                </tr>
              </thead>
              <tbody>
                {ROUTES.filter((r) => r.tag === tag).map((r) => (
                  <tr key={`${r.method} ${r.path}`} className="border-b border-slate-100 dark:border-slate-900">
                    <td className="py-2 font-mono font-semibold">{r.method}</td>
                    <td className="font-mono">{r.path}</td>
                    <td>{r.summary}</td>
                    <td className="font-mono text-xs">{routeScope(r)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </main>
  );
}
