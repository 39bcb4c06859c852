// State that must be one per process: caches, queues, the limiter's memory, listeners. Next may load a module
// once per bundle (each route, instrumentation), so module-level variables can exist several times over;
// anything shared lives on globalThis under one name instead.

const g = globalThis as unknown as { __platformState?: Map<string, unknown> };

export function processSingleton<T>(name: string, create: () => T): T {
  g.__platformState ??= new Map();
  if (!g.__platformState.has(name)) g.__platformState.set(name, create());
  return g.__platformState.get(name) as T;
}
