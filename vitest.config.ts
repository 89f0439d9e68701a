import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The headless Chromium the HTML report tests drive, unpacked once per run.
    globalSetup: ['test/support/chromium.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // e2e files each start their own anvil; two cores, so keep the pool small.
    maxWorkers: 2,
  },
});
