import { notFound } from "next/navigation";
import { MarkdownTwinLink } from "@/components/docs/markdown-twin-link";
import { versionRegistry } from "@/lib/versions/registry";

export default async function MigrationGuide({ params }: { params: Promise<{ version: string }> }) {
  const { version } = await params;
  const record = versionRegistry().get(version);
  if (!record) notFound();
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <MarkdownTwinLink href={`/docs/migrations/${record.version}.md`} />
      <h1 className="text-3xl font-bold">API {record.version}</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">
        Status: {record.status}; released {record.releaseDate}
        {record.sunsetDate ? `; sunset ${record.sunsetDate}` : ""}.
      </p>
      <h2 className="mt-8 text-xl font-semibold">Changelog</h2>
      <ul className="mt-2 list-disc pl-6">
        {record.changelog.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      {record.replacement ? (
        <p className="mt-6">
          Move to <code>/{record.replacement}</code>: change the path prefix; see the changelog of {record.replacement} for breaking
          changes.
        </p>
      ) : null}
    </main>
  );
}
