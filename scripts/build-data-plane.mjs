// Bundles the data plane (lib/server/data-plane-entry.ts and what it imports from lib/ and generated/) to
// dist/data-plane/entry.mjs with esbuild: no TypeScript is compiled when a request comes, and packages stay in
// node_modules. The build fails when the bundle would load Next or React: the data plane must never wait on them.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const DATA_PLANE_BUNDLE = "dist/data-plane/entry.mjs";
const FORBIDDEN = /^(next|react|react-dom|next-auth)(\/|$)/;

// Modules loaded at their first use, and what lib/ takes from each: a class (constructed through the shim) or an
// object (read through it). A process on SQLite without Redis never loads PostgreSQL's client, adapter and driver,
// nor ioredis: about 40 MB of its RSS.
const LAZY = {
  "../../generated/prisma-sqlite/index.js": { PrismaClient: "class", Prisma: "object" },
  "../../generated/prisma-pg/index.js": { PrismaClient: "class", Prisma: "object" },
  "@prisma/adapter-better-sqlite3": { PrismaBetterSQLite3: "class" },
  "@prisma/adapter-pg": { PrismaPg: "class" },
  ioredis: { default: "class" },
  pg: { default: "object" },
};
const LAZY_SPECIFIER = /^(@\/generated\/prisma-(sqlite|pg)|@prisma\/adapter-(better-sqlite3|pg)|ioredis|pg)$/;

/** A module whose exports load `specifier` at their first use. */
function lazyModule(specifier, exports) {
  const lines = [
    'import { createRequire } from "node:module";',
    `const load = (() => { let m; return () => (m ??= createRequire(import.meta.url)(${JSON.stringify(specifier)})); })();`,
  ];
  for (const [name, kind] of Object.entries(exports)) {
    const target = name === "default" ? "(load().default ?? load())" : `load().${name}`;
    const value =
      kind === "class" ? `function (...args) { return new (${target})(...args); }` : `new Proxy({}, { get: (_, key) => ${target}[key] })`;
    lines.push(name === "default" ? `export default ${value};` : `export const ${name} = ${value};`);
  }
  return lines.join("\n");
}

export async function buildDataPlane() {
  mkdirSync("dist/data-plane", { recursive: true });
  const result = await build({
    entryPoints: ["lib/server/data-plane-entry.ts"],
    outfile: DATA_PLANE_BUNDLE,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
    // `server-only` throws outside React's server condition; here everything is the server.
    plugins: [
      {
        name: "server-only",
        setup(b) {
          b.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
          b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "" }));
        },
      },
      {
        // zod is bundled in: as a package it is some 90 ES modules that node resolves and compiles one by one at
        // start (about half a second of the data plane's start-up on these machines).
        name: "bundle-zod",
        setup(b) {
          b.onResolve({ filter: /^zod$/ }, () => ({ path: fileURLToPath(import.meta.resolve("zod")) }));
        },
      },
      {
        // See LAZY. The generated clients stay where they are: CommonJS that finds its engine files beside itself.
        name: "lazy-modules",
        setup(b) {
          b.onResolve({ filter: LAZY_SPECIFIER }, (args) => ({
            path: args.path.startsWith("@/generated/") ? `../../generated/${args.path.slice("@/generated/".length)}/index.js` : args.path,
            namespace: "lazy",
          }));
          b.onLoad({ filter: /.*/, namespace: "lazy" }, (args) => ({ contents: lazyModule(args.path, LAZY[args.path]) }));
        },
      },
    ],
    // CommonJS packages bundled in (none today, but a require() must not break the ESM bundle).
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  });
  const imported = new Set(
    Object.values(result.metafile.outputs).flatMap((o) =>
      o.imports.filter((i) => i.external && !i.path.startsWith(".")).map((i) => i.path),
    ),
  );
  const ui = [...imported].filter((p) => FORBIDDEN.test(p));
  if (ui.length) throw new Error(`the data plane would load ${ui.join(", ")}: find what lib/ module imports it (esbuild --analyze)`);
  writeFileSync("dist/data-plane/meta.json", JSON.stringify(result.metafile));
  writeFileSync(DATA_PLANE_BUNDLE, asciiOnly(readFileSync(DATA_PLANE_BUNDLE, "utf8")));
  return { imports: [...imported].sort() };
}

/**
 * The bundle with every character outside ASCII written as a \u escape. V8 keeps a module's source for as long as
 * the module lives, one byte a character when all of them are Latin-1 and two when any one is not; esbuild escapes
 * strings (its ascii charset, the default) but keeps the comments it keeps as written, and four "—" and "→" in
 * comments made the 1.5 MB bundle 3 MB of the data plane's heap (1.4 MB more in its large-object space, measured).
 * They are all in comments today, where an escape reads as well; in a string, a template or a regular expression
 * \uXXXX is the same character (a template's String.raw would differ: none in lib/). Columns after one on its line
 * shift in the source map by five a character.
 */
export function asciiOnly(code) {
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { imports } = await buildDataPlane();
  console.log(`[build] ${DATA_PLANE_BUNDLE} (packages it loads: ${imports.join(", ")})`);
}
