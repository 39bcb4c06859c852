// The one source of time. Everything time-based (expiry, windows, sunset, retries) calls now(), so tests can
// move time instead of waiting.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

let current: Clock = systemClock;

export function now(): Date {
  return current.now();
}

export function setClock(clock: Clock): void {
  current = clock;
}

export function resetClock(): void {
  current = systemClock;
}

/** A clock that stands still until moved; for tests. */
export function fixedClock(start: Date | string): Clock & { advance(ms: number): void; set(to: Date | string): void } {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    advance: (ms: number) => { t += ms; },
    set: (to: Date | string) => { t = new Date(to).getTime(); },
  };
}
