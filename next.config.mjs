// Plain JavaScript, not TypeScript: Next transpiles a next.config.ts with its SWC binary at every start, which
// loaded 23 MB of native code into the production server's memory for that one file.
/** @type {import("next").NextConfig} */
const nextConfig = {
  // A separate build folder lets several checkouts' test runs share one work tree without rebuilding under each other.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // The database file and generated engines stay out of the server trace; the app reads DATABASE_URL at run time.
  outputFileTracingExcludes: { "*": ["data/**", "prisma/**/*.db"] },
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  // The portal's pages load at their first visit (200–400 ms once each), not all at start: a server that answers only
  // the API and the gateway then holds 131 MB after start instead of 175 MB.
  experimental: { preloadEntriesOnStart: false },
  // Every docs page has a Markdown twin at its own path + `.md` (/docs.md, /docs/guides/billing.md,
  // /p/{slug}/docs.md), answered by one route handler, app/md/[...path]/route.ts. A rewrite rather than folders
  // named `docs.md`: the App Router has no segment such as `[slug].md` (a dynamic segment is the whole segment, so
  // /docs/guides/billing.md would reach the guide page as slug "billing.md"), and one handler keeps the page →
  // Markdown table in one place instead of a folder per page. beforeFiles: decided before any page or dynamic route.
  async rewrites() {
    return {
      beforeFiles: [
        { source: "/docs.md", destination: "/md/docs" },
        { source: "/docs/:path+.md", destination: "/md/docs/:path+" },
        { source: "/p/:slug/docs.md", destination: "/md/p/:slug/docs" },
      ],
    };
  },
};

export default nextConfig;
