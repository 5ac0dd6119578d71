import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'tests/unit/**/*.test.ts',
      'tests/adapters/**/*.test.ts',
      'tests/integration/**/*.test.ts',
    ],
    // One temp folder for the run, removed at its end (tests/support/run-temp-dir.ts).
    globalSetup: ['tests/support/run-temp-dir.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests drive real claude processes and git; two cores do not take more in parallel.
    maxWorkers: 2,
    fileParallelism: true,
    // CI sums these up with Playwright's JSON into one line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
})
