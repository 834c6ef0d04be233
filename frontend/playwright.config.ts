import { defineConfig } from '@playwright/test';

/**
 * Browser tests against a running site (the Makefile starts it; no webServer here).
 * Uses Debian's chromium; Playwright's own browsers are never downloaded.
 */
export default defineConfig({
  testDir: 'e2e',
  reporter: 'list',
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
