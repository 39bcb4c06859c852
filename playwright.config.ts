import { defineConfig } from "@playwright/test";

// Browser tests in Debian's Chromium (never a downloaded browser). scripts/test.mjs sets DATABASE_URL to a
// fresh database; the web server is the built app.
const port = Number(process.env.E2E_PORT ?? 3210);

export default defineConfig({
  testDir: "./e2e",
  timeout: 60_000,
  workers: 1,
  reporter: [["list"], ["json"]],
  outputDir: "test-results/e2e",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  webServer: {
    command: "node server.mjs",
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1" },
  },
});
