// `<link rel="alternate" type="text/markdown">` naming a page's Markdown twin (its path + `.md`, see
// next.config.mjs): React puts a <link> rendered anywhere into the document's <head>, so a page says it in one line.
export function MarkdownTwinLink({ href }: { href: string }) {
  return <link rel="alternate" type="text/markdown" href={href} />;
}
