import { defineConfig } from '@playwright/test';

/**
 * Browser tests against a running site (the Makefile starts it; no webServer here).
 * Uses Debian's chromium; Playwright's own browsers are never downloaded.
 */
export default defineConfig({
  testDir: 'e2e',
  // The list as it runs; the JSON report lets `make test` end its log with why a test failed (E2E_REPORT).
  reporter: [['list'], ['json', { outputFile: process.env.E2E_REPORT ?? 'test-results/report.json' }]],
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: process.env.BASE_URL ?? 'http://127.0.0.1:8080',
    headless: true,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/lib/chromium/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
  projects: [{ name: 'chromium' }],
});
