import Link from "next/link";
import type { NavItemShape } from "@/lib/apps/base-app";

// The shell's navigation links, nested as the config nests them. The current page is marked with aria-current.

const cx = (...c: (string | false | undefined)[]) => c.filter(Boolean).join(" ");

export function NavList({
  items,
  currentHref,
  layout = "vertical",
  depth = 0,
}: {
  items: NavItemShape[];
  currentHref: string;
  layout?: "vertical" | "horizontal";
  depth?: number;
}) {
  return (
    <ul
      className={cx(
        layout === "horizontal" ? "flex flex-wrap gap-1" : "space-y-1",
        depth > 0 && "mt-1 ml-3 border-l border-(--app-border) pl-2",
      )}
    >
      {items.map((item) => {
        const current = item.href === currentHref;
        return (
          <li key={`${item.href}-${item.label}`}>
            <Link
              href={item.href}
              aria-current={current ? "page" : undefined}
              title={item.description}
              className={cx(
                "flex items-center gap-2 rounded-md px-3 py-2 text-sm no-underline hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-(--app-accent)",
                current
                  ? "bg-(--app-accent-soft) font-semibold text-(--app-accent-strong)"
                  : "text-(--app-fg) hover:bg-(--app-accent-soft)",
              )}
            >
              {item.icon ? <span aria-hidden="true">{item.icon}</span> : null}
              <span className="min-w-0 break-words">{item.label}</span>
            </Link>
            {item.children?.length ? <NavList items={item.children} currentHref={currentHref} depth={depth + 1} /> : null}
          </li>
        );
      })}
    </ul>
  );
}
