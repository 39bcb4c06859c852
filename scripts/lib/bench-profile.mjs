// Where a server's CPU goes during one load phase, from a V8 CPU profile (`node --cpu-prof`, which bench:api
// turns on with BENCH_PROFILE=1). The profile covers the process's whole life; its timestamps are the monotonic
// clock in microseconds, the same clock as process.hrtime() in the benchmark script, so a phase is cut out of it
// by the times the script noted (monotonicUs()). Self time is summed per function and per area (Node's own
// code, a package in node_modules, a source file of the app, GC); code in Next's bundles (.next/server) is traced
// back to its source file through the bundle's source map.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** The newest .cpuprofile in `dir`. */
export function latestProfile(dir) {
  // CPU.{date}.{time}.{pid}.{thread}.{seq}.cpuprofile: the main thread's (thread 0), not a worker's (the WAL
  // checkpoint thread writes one of its own).
  const files = readdirSync(dir)
    .filter((f) => /\.0\.\d+\.cpuprofile$/.test(f))
    .sort();
  return files.length ? path.join(dir, files.at(-1)) : null;
}

const maps = new Map(); // bundle file → SourceMap | null
/** The source file (and 1-based line) a bundled frame came from, or null. */
function original(url, line, column) {
  if (!url.includes("/.next/server/") && !url.includes("/dist/data-plane/")) return null;
  const file = url.startsWith("file:") ? fileURLToPath(url) : url;
  if (!maps.has(file)) {
    let map = null;
    try {
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
    } catch {
      /* unreadable map */
    }
    maps.set(file, map);
  }
  const entry = maps.get(file)?.findEntry(line, column);
  if (!entry?.originalSource) return null;
  const source = entry.originalSource
    .replace(/^(\.\.\/)+/, "")
    .replace(/^\[project\]\//, "")
    .replace(/^webpack:\/\/\/?/, "");
  return { source, line: entry.originalLine + 1 };
}

function areaOf(frame) {
  const url = frame.url ?? "";
  const orig = original(url, frame.lineNumber, frame.columnNumber);
  if (orig) {
    if (/^generated\/prisma-[^/]+\/runtime\//.test(orig.source)) return "prisma client runtime (generated/*/runtime)";
    const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(orig.source);
    return nm ? `${nm[1]} (bundled)` : orig.source;
  }
  if (frame.functionName === "(garbage collector)") return "GC";
  if (frame.functionName === "(program)" || frame.functionName === "(root)") return "V8 / native (program)";
  if (url.startsWith("wasm://")) return "wasm (Prisma's query compiler)"; // the only WebAssembly the server loads
  if (!url) return `native: ${frame.functionName || "(anonymous)"}`;
  if (url.startsWith("node:")) {
    const m = /^node:(?:internal\/)?([a-z_]+)/.exec(url);
    return `node:${m ? m[1] : url.slice(5)}`;
  }
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)(?:\/(dist\/compiled\/[^/]+|dist\/server\/[^/]+))?/.exec(url);
  if (nm) return nm[2] ? `${nm[1]}/${nm[2]}` : nm[1];
  const chunk = /\.next\/server\/(.*)$/.exec(url);
  if (chunk) return `app bundle: ${chunk[1].replace(/\[[^\]]*\]_?/g, "").slice(0, 60)}`;
  return url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "");
}

/** A coarse heading for an area, so a profile reads as "how much is the framework, the ORM, the app, the kernel". */
export function groupOf(area) {
  if (area === "GC") return "GC";
  if (/^native: (writeUtf8String|writev|writeBuffer|writeLatin1String)$|^node:(net|stream|_http|http)/.test(area))
    return "socket writes and node:http";
  if (/prisma|^pg|^@prisma/i.test(area)) return "Prisma (client runtime, query compiler, driver adapter)";
  if (/^better-sqlite3/.test(area)) return "better-sqlite3";
  // node:deps is undici here: the web Request/Response objects Next builds around each node:http request.
  if (/^next|^node:(webstreams|async_hooks|deps)|turbopack/.test(area))
    return "Next.js (router, route runtime, web Request/streams, async context)";
  if (/^(lib|app)\//.test(area)) return "the app's own code (lib/, app/)";
  return "other (Node internals, packages, V8)";
}

/**
 * Self time during [startUs, endUs):
 * { ms, idleMs, groups: [{ group, ms, share }], areas: [{ area, ms, share }], functions: [{ name, where, ms, share }] }
 * (shares are of the busy, non-idle time).
 */
export function summarize(file, startUs, endUs, top = 15) {
  const prof = JSON.parse(readFileSync(file, "utf8"));
  const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map(); // node id → µs
  let t = prof.startTime;
  for (let i = 0; i < prof.samples.length; i++) {
    t += prof.timeDeltas[i];
    if (t < startUs || t >= endUs) continue;
    const dt = prof.timeDeltas[i + 1] ?? 0; // a sample stands for the time until the next one
    self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt);
  }
  const areas = new Map();
  const functions = new Map();
  let busy = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const f = nodes.get(id).callFrame;
    if (f.functionName === "(idle)") {
      idle += us;
      continue;
    }
    busy += us;
    const area = areaOf(f);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const orig = original(f.url ?? "", f.lineNumber, f.columnNumber);
    const where = orig
      ? `${orig.source}:${orig.line}`
      : f.url
        ? `${f.url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "")}:${f.lineNumber + 1}`
        : "";
    const key = `${f.functionName || "(anonymous)"} ${where}`;
    const e = functions.get(key) ?? { name: f.functionName || "(anonymous)", where, us: 0 };
    e.us += us;
    functions.set(key, e);
  }
  const ms = (us) => Math.round(us / 100) / 10;
  const share = (us) => Math.round((us / busy) * 1000) / 10;
  const groups = new Map();
  for (const [area, us] of areas) groups.set(groupOf(area), (groups.get(groupOf(area)) ?? 0) + us);
  return {
    ms: ms(busy),
    idleMs: ms(idle),
    groups: [...groups].sort((a, b) => b[1] - a[1]).map(([group, us]) => ({ group, ms: ms(us), share: share(us) })),
    areas: [...areas]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([area, us]) => ({ area, ms: ms(us), share: share(us) })),
    functions: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((e) => ({ name: e.name, where: e.where, ms: ms(e.us), share: share(e.us) })),
  };
}
