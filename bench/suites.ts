/** Every benchmark suite, in the order a full run takes them (bench/index.ts); each runs in its own process. */
import type { BenchOptions, BenchRow } from './table';

export type Suite = { name: string; load: () => Promise<{ run: (options: BenchOptions) => Promise<BenchRow[]> }> };

export const suites: Suite[] = [
  { name: 'core-start', load: () => import('./core-start') },
  { name: 'web-start', load: () => import('./web-start') },
  { name: 'tools-grep', load: () => import('./tools-grep') },
  { name: 'tools-fs', load: () => import('./tools-fs') },
  { name: 'tools-outline', load: () => import('./tools-outline') },
  { name: 'approval-gate', load: () => import('./approval-gate') },
  { name: 'shell-gate-cold', load: () => import('./shell-gate-cold') },
  { name: 'session-overhead', load: () => import('./session-overhead') },
  { name: 'session-after-idle', load: () => import('./session-after-idle') },
  { name: 'llm-round', load: () => import('./llm-round') },
  { name: 'history', load: () => import('./history') },
  { name: 'memory', load: () => import('./memory') },
  { name: 'agents', load: () => import('./agents') },
  { name: 'mcp', load: () => import('./mcp') },
  { name: 'sandbox', load: () => import('./sandbox') },
  { name: 'ui', load: () => import('./ui') },
  { name: 'viewer', load: () => import('./viewer') },
  { name: 'rewind', load: () => import('./rewind') },
];
