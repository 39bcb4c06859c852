"use client";
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Button } from "./primitives";

// The one confirmation for destructive actions (revoke, delete, rotate, remove): a modal alert dialog that says
// what is lost, starts on "Cancel", keeps Tab inside itself, closes on Escape and gives focus back to the button
// that opened it. Used through `useConfirm()` in place of the browser's confirm().

export interface ConfirmOptions {
  /** A question naming the thing: `Revoke "Backend server"?` */
  title: string;
  /** What is lost, in words: "It stops working on the next request." */
  body: ReactNode;
  /** The verb on the button: "Revoke key". */
  confirmLabel: string;
  tone?: "danger" | "primary";
}

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  tone = "danger",
  onClose,
}: ConfirmOptions & { onClose: (confirmed: boolean) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    cancelRef.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus?.();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-200 bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      onCancel={(e) => {
        // Escape: close through React so the caller hears "no".
        e.preventDefault();
        onClose(false);
      }}
      onKeyDown={(e) => {
        if (e.key !== "Tab") return;
        const items = [...(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
        if (!items.length) return;
        const first = items[0];
        const last = items[items.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }}
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      <div id={`${id}-body`} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        {body}
      </div>
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <Button ref={cancelRef} variant="secondary" onClick={() => onClose(false)}>
          Cancel
        </Button>
        <Button variant={tone} onClick={() => onClose(true)}>
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}

/**
 * `const [dialog, confirm] = useConfirm();` then `if (!(await confirm({...}))) return;` and render `{dialog}`.
 * One dialog at a time; a second ask while one is open answers the first with "no".
 */
export function useConfirm(): [ReactNode, (options: ConfirmOptions) => Promise<boolean>] {
  const [request, setRequest] = useState<(ConfirmOptions & { resolve: (ok: boolean) => void }) | null>(null);
  const ask = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) =>
        setRequest((previous) => {
          previous?.resolve(false);
          return { ...options, resolve };
        }),
      ),
    [],
  );
  const dialog = request ? (
    <ConfirmDialog
      {...request}
      onClose={(ok) => {
        request.resolve(ok);
        setRequest(null);
      }}
    />
  ) : null;
  return [dialog, ask];
}
