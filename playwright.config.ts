import { defineConfig } from "@playwright/test";

// Browser tests in Debian's Chromium (never a downloaded browser). scripts/test.mjs sets DATABASE_URL to a
// fresh database; the web servers are a local SMTP sink (magic-link mail) and the built app.
const port = Number(process.env.E2E_PORT ?? 3210);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2525);
const smtpHttpPort = smtpPort + 1;

export default defineConfig({
  testDir: "./e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  reporter: [["list"], ["json"]],
  outputDir: "test-results/e2e",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    navigationTimeout: 30_000,
    actionTimeout: 15_000,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: [
    {
      command: "node e2e/smtp-sink.mjs",
      url: `http://127.0.0.1:${smtpHttpPort}/health`,
      reuseExistingServer: false,
      timeout: 15_000,
      env: { E2E_SMTP_PORT: String(smtpPort), E2E_SMTP_HTTP_PORT: String(smtpHttpPort) },
    },
    {
      command: "node scripts/serve.mjs",
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        NEXT_TELEMETRY_DISABLED: "1",
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        // Magic links go to the sink; webhooks may target the tests' receiver on 127.0.0.1; usage, logs and
        // rollups are written within a few hundred milliseconds so the views move while the tests watch.
        EMAIL_SERVER: `smtp://127.0.0.1:${smtpPort}`,
        EMAIL_FROM: "Developer Platform <no-reply@platform.test>",
        ALLOW_PRIVATE_URLS: "true",
        USAGE_FLUSH_MS: "100",
        ROLLUP_FLUSH_MS: "300",
        WEBHOOK_POLL_MS: "200",
        // The Usage view's costs, invoices and plan simulator (showCosts is off by default).
        PORTAL_CONFIG: JSON.stringify({ name: "Developer Portal", views: { usage: { showCosts: true } } }),
      },
    },
  ],
});
