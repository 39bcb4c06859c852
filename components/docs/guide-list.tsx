import Link from "next/link";
import { GUIDES, guideHref } from "@/lib/docs/guides";

// The guides as a list of links with one line each: on /docs and on /docs/guides.
export function GuideList() {
  return (
    <ul className="mt-4 space-y-2">
      {GUIDES.map((g) => (
        <li key={g.slug}>
          <Link href={guideHref(g.slug)} className="font-semibold">
            {g.title}
          </Link>
          <span className="text-slate-600 dark:text-slate-300"> · {g.summary}</span>
        </li>
      ))}
    </ul>
  );
}
