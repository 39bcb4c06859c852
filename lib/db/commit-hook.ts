import { AsyncLocalStorage } from "node:async_hooks";
import type { Prisma } from "@/generated/prisma-sqlite";

// A write that must commit together with a request's own writes, or not at all. The pipeline sets one around a
// handler (lib/server/idempotency.ts: "this Idempotency-Key's request has committed"); withEvents, the one place
// handlers open their transactions (lib/events/emit-event.ts), runs it inside each transaction before the commit.
// So after a crash the idempotency record tells a request that committed from one that did not.
//
// The hook travels in AsyncLocalStorage, which timers and background work started by the handler inherit too:
// closed when the request ends, it no longer runs for them.

/** What a transaction declares as the request's answer (withEvents' `answer`), for the hook to store with it. */
export interface DeclaredAnswer {
  value: unknown;
}

export type CommitHook = (tx: Prisma.TransactionClient, answer: DeclaredAnswer | null) => Promise<void>;

export interface CommitScope {
  /** A transaction that ran the hook has committed. */
  committed: boolean;
  closed: boolean;
}

interface Store {
  hook: CommitHook;
  scope: CommitScope;
}

const storage = new AsyncLocalStorage<Store>();

/** Runs `fn` with `hook` joined to its transactions; the scope says afterwards whether one committed. */
export function runWithCommitHook<T>(hook: CommitHook, fn: (scope: CommitScope) => Promise<T>): Promise<T> {
  const scope: CommitScope = { committed: false, closed: false };
  return storage.run({ hook, scope }, () => fn(scope));
}

/** The hook of the request this code runs for, or null; `committed` is to be called once its transaction has. */
export function currentCommitHook(): { run: CommitHook; committed: () => void } | null {
  const store = storage.getStore();
  if (!store || store.scope.closed) return null;
  return {
    run: store.hook,
    committed: () => {
      store.scope.committed = true;
    },
  };
}
