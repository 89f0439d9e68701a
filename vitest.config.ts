import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The headless Chromium the HTML report tests drive, unpacked once per run.
    globalSetup: ['test/support/chromium.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // e2e files each start their own anvil; two cores, so keep the pool small.
    maxWorkers: 2,
    projects: [
      // The unit files share their workers (a fresh process per file costs more than most of them take to
      // run): they mock nothing and set no globals, the few with an anvil start and stop it in their own
      // hooks, and they pass in any order (`--sequence.shuffle`) and all in one process (`--maxWorkers=1`).
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
      // Each end-to-end file in a process of its own: its nodes, servers and temporary projects.
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
    ],
  },
});
