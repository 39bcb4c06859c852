import { createRequire } from "node:module";

// Giving back to the system the pages glibc's malloc holds free, the idle release's last step (idle-memory.ts).
//
// Besides V8's heaps, a node process allocates through malloc: a 64 KB buffer for each read of a socket node:http
// does not parse itself (most likely the gateway's upstream connections, undici's: uprobes saw one a call) and then
// an exact-size copy of what was read, which lives until a scavenge frees its Buffer; SQLite's 16 KB pages on its
// thread; TLS, zlib, V8's compiler. Under load those copies and pages sit among longer-lived blocks, and when the
// calls stop malloc's heap is full of free space it cannot hand back: glibc's free() returns memory only from the
// heap's top. Measured after bench:gateway's load (docs/benchmarks.md, bench:gateway, "Where the RSS above 110 MB
// was"): the heap 31–41 MB, of which `malloc_trim(0)`, called from outside through gdb, gave back 11.7 MB. glibc's
// malloc_trim releases the free pages inside every arena too (madvise), not only the top, which no tunable of free()
// does; node does not call it, and no npm package exposes it alone, so it is called through koffi (a maintained FFI
// with prebuilt binaries for each platform as npm packages).
//
// Linux with glibc only: elsewhere (macOS, musl) there is no such function or no such heap, and the release skips
// this step. koffi is loaded at the first release, never under load, so a process that never goes quiet never loads
// it; loading it costs about 2 MB once.

type Trim = (pad: number) => number;

let trim: Trim | null | undefined;

function loadTrim(): Trim | null {
  if (process.platform !== "linux") return null;
  try {
    const koffi = createRequire(import.meta.url)("koffi");
    return koffi.load("libc.so.6").func("int malloc_trim(size_t pad)") as Trim;
  } catch (e) {
    // Not glibc (musl's libc is not libc.so.6), or koffi missing from a trimmed install: the release goes on without.
    console.warn(`[memory] malloc's free pages are not given back (${(e as Error).message.split("\n")[0]})`);
    return null;
  }
}

/** Hands malloc's free pages back to the system; true when glibc released some, false when none or not available. */
export function trimMalloc(): boolean {
  if (trim === undefined) trim = loadTrim();
  return trim ? trim(0) === 1 : false;
}
