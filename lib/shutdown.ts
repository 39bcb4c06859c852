// Work to finish before the process exits (flushing batched writes). data-plane.mjs and next-server.mjs call
// globalThis.__platformShutdown on SIGTERM/SIGINT after the HTTP server stops accepting requests.

type Hook = () => Promise<void>;
const g = globalThis as unknown as {
  __platformShutdownHooks?: Hook[];
  __platformShutdown?: () => Promise<void>;
  __platformDrainHooks?: Hook[];
  __platformDrainTick?: () => Promise<void>;
};

/** Adds `hook` to a list kept on globalThis (one list for every copy of this module a process loads: the data plane's
 * bundle, Next's chunks), and sets the function that runs the list's hooks together. */
function addHook(hook: Hook, list: "__platformShutdownHooks" | "__platformDrainHooks", run: "__platformShutdown" | "__platformDrainTick") {
  (g[list] ??= []).push(hook);
  g[run] ??= async () => {
    await Promise.allSettled((g[list] ?? []).map((h) => h()));
  };
}

export function onShutdown(hook: Hook): void {
  addHook(hook, "__platformShutdownHooks", "__platformShutdown");
}

/**
 * Work to repeat while a stopping process waits for its requests in flight (every 100 ms, scripts/lib/drain-on-signal.mjs):
 * writing what the finished ones queued. A connection that holds the drain open past its deadline (a client stalled
 * halfway through a request) then cannot take the usage, logs and audit entries of the others with it. Each hook
 * must be safe to run again and again (it writes what is queued now) and is never run twice at once.
 */
export function whileDraining(hook: Hook): void {
  addHook(hook, "__platformDrainHooks", "__platformDrainTick");
}
