/**
 * Core start (database open, migrations, registry, agents) under 200 ms; memory at rest under 200 MB
 * (docs/architecture.md "Performance targets").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../src/main/core/index';
import { median, ms, type BenchRow } from './table';

export async function run(): Promise<BenchRow[]> {
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'skald-bench-start-'));
    const started = performance.now();
    const core = await createCore({ dataDir: dir, workspaceDir: join(dir, 'workspace'), shape: 'web', version: 'bench' });
    times.push(performance.now() - started);
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
  const startMedian = median(times);
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  return [
    { name: 'core start (fresh data dir)', ours: ms(startMedian), peer: '< 200 ms', target: '< 200 ms', pass: startMedian < 200 },
    { name: 'process memory at rest (RSS)', ours: `${rssMb.toFixed(0)} MB`, peer: '< 200 MB', target: '< 200 MB', pass: rssMb < 200 },
  ];
}
