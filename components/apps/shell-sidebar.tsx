"use client";

import { useId, useState } from "react";
import { usePathname } from "next/navigation";
import type { NavItemShape } from "@/lib/apps/base-app";
import { NavList } from "./nav-list";

// The shell's sidebar. From the md breakpoint up it is a column that can collapse to a narrow rail (starting
// collapsed when the config's shell.sidebarCollapsed is true); below it, the links sit behind a Menu button,
// closed on every page so the content comes first. Both buttons are disclosure buttons for the same list.

const toggle =
  "items-center justify-center gap-2 rounded-md border border-(--app-border) bg-(--app-card) px-3 py-2 text-sm font-medium text-(--app-fg) hover:bg-(--app-accent-soft) focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-(--app-accent)";

export function ShellSidebar({
  items,
  currentHref,
  label,
  initiallyCollapsed,
}: {
  items: NavItemShape[];
  currentHref: string;
  label: string;
  initiallyCollapsed: boolean;
}) {
  const navId = useId();
  const pathname = usePathname();
  const [collapsed, setCollapsed] = useState(initiallyCollapsed);
  // The small-screen menu is open only on the page where it was opened: following a link closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;

  return (
    <aside
      className={`shrink-0 border-b border-(--app-border) bg-(--app-surface) md:border-r md:border-b-0 ${collapsed ? "md:w-16" : "md:w-60"}`}
    >
      <div className="flex items-center justify-between gap-2 p-3 md:justify-end">
        <button
          type="button"
          className={`${toggle} inline-flex md:hidden`}
          aria-expanded={open}
          aria-controls={navId}
          onClick={() => setOpenOn(open ? null : pathname)}
        >
          <MenuIcon /> Menu
        </button>
        <button
          type="button"
          className={`${toggle} hidden md:inline-flex`}
          aria-expanded={!collapsed}
          aria-controls={navId}
          onClick={() => setCollapsed(!collapsed)}
        >
          <ChevronIcon left={!collapsed} />
          <span className="sr-only">Sidebar</span>
        </button>
      </div>
      <nav id={navId} aria-label={label} className={`px-3 pb-3 ${open ? "block" : "hidden"} ${collapsed ? "md:hidden" : "md:block"}`}>
        <NavList items={items} currentHref={currentHref} />
      </nav>
    </aside>
  );
}

function MenuIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <path d="M3 5h14M3 10h14M3 15h14" />
    </svg>
  );
}

function ChevronIcon({ left }: { left: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="h-4 w-4"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={left ? "M12 5l-5 5 5 5" : "M8 5l5 5-5 5"} />
    </svg>
  );
}
