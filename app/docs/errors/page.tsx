import { MarkdownTwinLink } from "@/components/docs/markdown-twin-link";
import { ERROR_ENVELOPE } from "@/lib/docs/reference-markdown";
import { ERROR_CATALOG } from "@/lib/http/error-catalog";

export const metadata = { title: "Errors · Developer Platform" };

export default function ErrorsPage() {
  return (
    <main className="mx-auto max-w-4xl px-6 py-12">
      <MarkdownTwinLink href="/docs/errors.md" />
      <h1 className="text-3xl font-bold">Errors</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        Every error has the same envelope: <code>{ERROR_ENVELOPE}</code>. The <code>documentation</code> link of an error lands on its entry
        below.
      </p>
      <dl className="mt-8 space-y-6">
        {ERROR_CATALOG.map((e) => (
          <div
            key={e.code}
            id={e.code}
            className="scroll-mt-6 rounded-lg border border-slate-200 p-4 target:border-indigo-500 dark:border-slate-800"
          >
            <dt className="font-mono font-semibold">
              <a href={`#${e.code}`}>{e.code}</a>{" "}
              <span className="ml-2 text-sm text-slate-600 dark:text-slate-400">
                {e.status} · {e.type}
              </span>
            </dt>
            <dd className="mt-1">{e.meaning}</dd>
            <dd className="mt-1 text-slate-600 dark:text-slate-300">What to do: {e.fix}</dd>
          </div>
        ))}
      </dl>
    </main>
  );
}
