import { GuideList } from "@/components/docs/guide-list";
import { MarkdownTwinLink } from "@/components/docs/markdown-twin-link";

export const metadata = { title: "Guides · Developer Platform" };

export default function GuidesPage() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <MarkdownTwinLink href="/docs/guides.md" />
      <h1 className="text-3xl font-bold">Guides</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        Each guide stands on its own, for providers, consumers or operators. The <a href="/docs">API reference</a> lists every route.
      </p>
      <GuideList />
    </main>
  );
}
