import { availableParallelism } from 'node:os';
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
    // At least two files at a time. vitest's own default, one less than the cores, is one file at a time on a 2-core
    // machine; but a test file waits much of its time (on child processes, servers, the disk), so one at a time kept
    // a core idle: the whole run took about 470 CPU-seconds in 14 minutes (README "Running the tests").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // SKALD_TEST_CPU_LOG=<file>: each test file's CPU seconds, one line each (test/helpers/cpu-per-file.ts).
    setupFiles: process.env.SKALD_TEST_CPU_LOG ? ['test/helpers/cpu-per-file.ts'] : [],
  },
});
