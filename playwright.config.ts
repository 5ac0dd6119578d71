/**
 * End-to-end tests: the built renderer in Debian's Chromium against the real `navi serve` (real engine,
 * real git, real claude against a scripted API). Each test file starts its own servers (no webServer).
 * Run `npm run build` first: the fixture refuses to start without out/renderer/index.html.
 */
import { defineConfig } from '@playwright/test'

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // Two cores, and every test drives real claude processes: one at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  outputDir: 'test-results/playwright',
  use: {
    headless: true,
    screenshot: 'on',
    trace: 'retain-on-failure',
    viewport: { width: 420, height: 640 },
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: process.env.NAVI_CHROMIUM ?? '/usr/bin/chromium',
          args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
        },
      },
    },
  ],
})
