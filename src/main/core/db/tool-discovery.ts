/**
 * `ToolDiscovery` (docs/tools.md "Where tools come from"): the turn loop hands it the tool array it
 * offers each round; every name not seen before is upserted once into `known_tools`, so any tool that has been
 * offered (plugin, provider, MCP, interface) becomes gate-able in the Security page. The one writer of
 * `known_tools`; the catalog (tools/catalog.ts) reads it through its `KnownToolsSource` port. Off the hot path: `observe`
 * only checks an in-memory set and queues; the write runs on the next tick in one transaction.
 */
import type { ToolCategory } from '../../../shared/tool-names';
import type { KnownToolsSource } from '../tools/catalog';
import type { Db } from './database';

export interface OfferedTool {
  name: string;
  category?: ToolCategory | null;
}

export interface KnownTool {
  name: string;
  category: string | null;
  first_seen_at: number;
}

export class ToolDiscovery implements KnownToolsSource {
  private readonly seen = new Set<string>();
  private readonly pending = new Map<string, ToolCategory | null>();
  private scheduled: Promise<void> | null = null;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
    for (const row of db.prepare('SELECT name FROM known_tools').all() as { name: string }[]) this.seen.add(row.name);
  }

  /** Accepts our `{name, category}` or OpenAI-shape definitions. Never throws, never writes synchronously. */
  observe(
    tools: readonly (OfferedTool | { function: { name: string } })[],
    categoryOf?: (name: string) => ToolCategory | null,
  ): void {
    for (const t of tools) {
      const name = 'function' in t ? t.function.name : t.name;
      if (!name || this.seen.has(name)) continue;
      this.seen.add(name);
      this.pending.set(
        name,
        'function' in t ? (categoryOf?.(name) ?? null) : (t.category ?? categoryOf?.(name) ?? null),
      );
    }
    if (this.pending.size > 0 && !this.scheduled) {
      this.scheduled = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
    }
  }

  /** Writes what is queued (also called by the scheduled tick). A failed write re-queues nothing: it is a hint. */
  flush(): void {
    this.scheduled = null;
    if (this.pending.size === 0) return;
    const rows = [...this.pending];
    this.pending.clear();
    const insert = this.db.prepare(
      'INSERT INTO known_tools (name, category, first_seen_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
    );
    const at = this.now();
    try {
      this.db.transaction(() => {
        for (const [name, category] of rows) insert.run(name, category, at);
      })();
    } catch {
      for (const [name] of rows) this.seen.delete(name); // let a later round try again
    }
  }

  /** Resolves once queued names are written (tests, shutdown). */
  async whenIdle(): Promise<void> {
    await this.scheduled;
  }

  knownTools(): KnownTool[] {
    return this.db.prepare('SELECT name, category, first_seen_at FROM known_tools ORDER BY name').all() as KnownTool[];
  }
}
