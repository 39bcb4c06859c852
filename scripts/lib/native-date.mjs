// Imported first by data-plane.mjs and next-server.mjs, before Next loads: keeps the engine's own Date. Next replaces the global Date with
// a wrapper that consults an AsyncLocalStorage on every `new Date()` and `Date.now()` (to track time as I/O in
// prerenders); the API's hot path makes dozens of dates per request (row timestamps, the clock), which that
// wrapper made cost about 2% of its CPU. lib/native-date.ts hands the original to that code.
globalThis.__nativeDate ??= Date;
