// The import rules `npm test` checks (its lint stage): layers point down.
//   lib/http    the bottom: errors, envelope, body, query, cursors, route types; knows no domain
//   lib/<domain> products, keys, limits, usage, webhooks, billing, oauth, automation, apps, …: import
//               lib/http and each other, never in a circle
//   lib/server  the top: pipeline steps, route table, OpenAPI, serving; imports the domains
//   app/, components/  the portal and Next's routes, above everything in lib/
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "http-layer-knows-no-domain",
      comment: "lib/http is the bottom layer: it may use only itself and the process-wide basics (ids, clock, process state).",
      severity: "error",
      from: { path: "^lib/http/" },
      to: { path: "^lib/", pathNot: ["^lib/http/", "^lib/(ids|clock|process-state)\\.ts$"] },
    },
    {
      name: "server-layer-is-the-top",
      comment: "Only the server layer itself, the app and scripts import lib/server: a domain that needs it points up.",
      severity: "error",
      from: { path: "^lib/", pathNot: "^lib/server/" },
      to: { path: "^lib/server/" },
    },
    {
      name: "lib-does-not-import-ui",
      comment: "lib/ never names components/ or app/, not even for a type (tsPreCompilationDeps counts `import type`).",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "no-import-circles",
      comment: "Domains, components and routes import each other only downward: a circle means one of them points up.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "imports-resolve",
      severity: "error",
      from: {},
      to: { couldNotResolve: true, pathNot: ["^next-auth/adapters$"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|generated|\\.next)/" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports are dependencies too: a layer that names another's types depends on it.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
