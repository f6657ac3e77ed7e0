import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A poll waits for something another process or thread does (a round through the scripted LLM server, a worker
    // ending): on a loaded machine that can take longer than the default 1 s. A poll that never succeeds still fails.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // SKALD_TEST_CPU_LOG=<file>: each test file's CPU seconds, one line each (test/helpers/cpu-per-file.ts).
    setupFiles: process.env.SKALD_TEST_CPU_LOG ? ['test/helpers/cpu-per-file.ts'] : [],
  },
});
