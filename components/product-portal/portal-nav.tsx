"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { PortalNavItem } from "@/lib/apps/product-portal";

// A product portal's navigation, in the order of its app's views; the current page is marked with aria-current.

export function PortalNav({ items, label }: { items: PortalNavItem[]; label: string }) {
  const path = usePathname();
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-1">
        {items.map((item) => {
          const current = item.href === path;
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={current ? "page" : undefined}
                className={`block rounded-md px-3 py-2 text-sm no-underline hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-(--app-accent) ${
                  current
                    ? "bg-(--app-accent-soft) font-semibold text-(--app-accent-strong)"
                    : "text-(--app-fg) hover:bg-(--app-accent-soft)"
                }`}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
