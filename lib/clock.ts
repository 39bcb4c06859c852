import { NativeDate } from "./native-date";

// The one source of time. Everything time-based (expiry, windows, sunset, retries) calls now(), so tests can
// move time instead of waiting.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new NativeDate() };

// One per process (see lib/process-state.ts), so moving time moves it for every route and the worker alike.
const g = globalThis as unknown as { __platformClock?: Clock };

export function now(): Date {
  return (g.__platformClock ?? systemClock).now();
}

export function setClock(clock: Clock): void {
  g.__platformClock = clock;
}

export function resetClock(): void {
  g.__platformClock = undefined;
}

/** System time shifted by a fixed amount: what the test-clock endpoint installs. */
export function offsetClock(offsetMs: number): Clock {
  return { now: () => new NativeDate(NativeDate.now() + offsetMs) };
}

/** A clock that stands still until moved; for tests. */
export function fixedClock(start: Date | string): Clock & { advance(ms: number): void; set(to: Date | string): void } {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    advance: (ms: number) => {
      t += ms;
    },
    set: (to: Date | string) => {
      t = new Date(to).getTime();
    },
  };
}
