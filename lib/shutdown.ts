// Work to finish before the process exits (flushing batched writes). data-plane.mjs and next-server.mjs call
// globalThis.__platformShutdown on SIGTERM/SIGINT after the HTTP server stops accepting requests.

type Hook = () => Promise<void>;
const g = globalThis as unknown as { __platformShutdownHooks?: Hook[]; __platformShutdown?: () => Promise<void> };

export function onShutdown(hook: Hook): void {
  g.__platformShutdownHooks ??= [];
  g.__platformShutdownHooks.push(hook);
  g.__platformShutdown ??= async () => {
    await Promise.allSettled((g.__platformShutdownHooks ?? []).map((h) => h()));
  };
}
