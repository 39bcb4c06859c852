"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";

export interface NavEntry {
  href: string;
  label: string;
}

/** The sidebar: a list of links, current page marked; on small screens behind a disclosure button. */
export function PortalNav({ items }: { items: NavEntry[] }) {
  const path = usePathname();
  const [open, setOpen] = useState(false);
  const current = (href: string) => (href === "/portal" ? path === "/portal" : path.startsWith(href));
  return (
    <nav aria-label="Portal" className="md:w-56 md:shrink-0">
      <button
        type="button"
        className="mb-2 rounded-md border border-slate-300 px-3 py-2 text-sm md:hidden dark:border-slate-700"
        aria-expanded={open}
        aria-controls="portal-nav-list"
        onClick={() => setOpen(!open)}
      >
        {open ? "Close menu" : "Menu"}
      </button>
      <ul id="portal-nav-list" className={`${open ? "block" : "hidden"} space-y-1 md:block`}>
        {items.map((item) => (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={current(item.href) ? "page" : undefined}
              onClick={() => setOpen(false)}
              className={`block rounded-md px-3 py-2 text-sm no-underline ${current(item.href) ? "bg-indigo-50 font-semibold text-indigo-700 dark:bg-indigo-950 dark:text-indigo-200" : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"}`}
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
