// Work to finish before the process exits (flushing batched writes). data-plane.mjs and next-server.mjs call
// globalThis.__platformShutdown on SIGTERM/SIGINT after the HTTP server stops accepting requests.

type Hook = () => Promise<void>;
const g = globalThis as unknown as {
  __platformShutdownHooks?: Hook[];
  __platformShutdown?: () => Promise<void>;
  __platformDrainHooks?: Hook[];
  __platformDrainTick?: () => Promise<void>;
};

export function onShutdown(hook: Hook): void {
  g.__platformShutdownHooks ??= [];
  g.__platformShutdownHooks.push(hook);
  g.__platformShutdown ??= async () => {
    await Promise.allSettled((g.__platformShutdownHooks ?? []).map((h) => h()));
  };
}

/**
 * Work to repeat while a stopping process waits for its requests in flight (every 100 ms, scripts/lib/drain-on-signal.mjs):
 * writing what the finished ones queued. A connection that holds the drain open past its deadline (a client stalled
 * halfway through a request) then cannot take the usage, logs and audit entries of the others with it. Each hook
 * must be safe to run again and again (it writes what is queued now) and is never run twice at once.
 */
export function whileDraining(hook: Hook): void {
  g.__platformDrainHooks ??= [];
  g.__platformDrainHooks.push(hook);
  g.__platformDrainTick ??= async () => {
    await Promise.allSettled((g.__platformDrainHooks ?? []).map((h) => h()));
  };
}
