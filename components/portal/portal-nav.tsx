"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";

export interface NavEntry {
  href: string;
  label: string;
}

const linkStyle = (current: boolean) =>
  `block rounded-md px-3 py-2 text-sm no-underline ${
    current
      ? "bg-(--app-accent-soft) font-semibold text-(--app-accent-strong)"
      : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
  }`;

/**
 * The portal's navigation: a sidebar from md up; below that a "Menu" button opening a drawer (a modal dialog from
 * the left, closed by Escape, the backdrop, its close button or choosing a page; focus returns to the button).
 */
export function PortalNav({ items }: { items: NavEntry[] }) {
  const path = usePathname();
  const [open, setOpen] = useState(false);
  const drawer = useRef<HTMLDialogElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const current = (href: string) => (href === "/portal" ? path === "/portal" : path.startsWith(href));

  useEffect(() => {
    const d = drawer.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) {
      d.close();
      menuButton.current?.focus();
    }
  }, [open]);

  const list = (onChoose?: () => void) => (
    <ul className="space-y-1">
      {items.map((item) => (
        <li key={item.href}>
          <Link
            href={item.href}
            aria-current={current(item.href) ? "page" : undefined}
            onClick={onChoose}
            className={linkStyle(current(item.href))}
          >
            {item.label}
          </Link>
        </li>
      ))}
    </ul>
  );

  return (
    <nav aria-label="Portal" className="md:w-56 md:shrink-0">
      <button
        ref={menuButton}
        type="button"
        className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm md:hidden dark:border-slate-700"
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M3 5h14M3 10h14M3 15h14" strokeLinecap="round" />
        </svg>
        Menu
      </button>
      <div className="hidden md:block">{list()}</div>
      <dialog
        ref={drawer}
        aria-label="Portal navigation"
        className="m-0 h-full max-h-none w-72 max-w-[85vw] border-r border-slate-200 bg-white p-0 text-slate-900 backdrop:bg-slate-950/50 md:hidden dark:border-slate-800 dark:bg-slate-900 dark:text-slate-100"
        onCancel={(e) => {
          e.preventDefault();
          setOpen(false);
        }}
        onClick={(e) => {
          // A click on the backdrop lands on the dialog element itself.
          if (e.target === e.currentTarget) setOpen(false);
        }}
      >
        <div className="h-full p-4">
          <div className="mb-3 flex items-center justify-between">
            <p className="font-semibold">Menu</p>
            <button
              type="button"
              onClick={() => setOpen(false)}
              className="rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
            >
              Close
            </button>
          </div>
          {list(() => setOpen(false))}
        </div>
      </dialog>
    </nav>
  );
}
