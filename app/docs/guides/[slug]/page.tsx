import Link from "next/link";
import { notFound } from "next/navigation";
import { Markdown } from "@/components/docs/markdown";
import { MarkdownTwinLink } from "@/components/docs/markdown-twin-link";
import { guideSource } from "@/lib/docs/guide-source";
import { guideBySlug, guideHref } from "@/lib/docs/guides";

// One route for every guide under docs/: the slug is looked up in the fixed list first, and the file name comes
// from that list, never from the URL, so nothing outside it can be read.

type Params = Promise<{ slug: string }>;

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Params }) {
  const guide = guideBySlug((await params).slug);
  return { title: `${guide?.title ?? "Not found"} · Developer Platform` };
}

export default async function GuidePage({ params }: { params: Params }) {
  const guide = guideBySlug((await params).slug);
  if (!guide) notFound();
  const source = (await guideSource(guide.slug)) ?? `# ${guide.title}\n\nThis guide is not installed.`;
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <MarkdownTwinLink href={`${guideHref(guide.slug)}.md`} />
      <p className="mb-6 text-sm">
        <Link href="/docs/guides">← All guides</Link>
      </p>
      <Markdown source={source} />
    </main>
  );
}
