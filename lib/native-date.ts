// The engine's own Date, kept by data-plane.mjs and next-server.mjs before Next wraps the global one (scripts/lib/native-date.mjs); the
// global Date elsewhere (tests, scripts). Same prototype, so `instanceof Date` holds for both.
export const NativeDate: DateConstructor = (globalThis as { __nativeDate?: DateConstructor }).__nativeDate ?? Date;
