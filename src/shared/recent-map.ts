/**
 * A map that keeps only its `limit` most recently used entries: reading an entry (`get`) or writing it (`set`) makes
 * it the most recent, and a write past the limit drops the least recent. The one bounded cache of the app, in the
 * main process and in the page: models by endpoint, a history card's decision, rendered Markdown, highlighted blocks.
 *
 * Recency is a number on each entry, not the Map's order: a read allocates nothing. Moving the entry to the Map's end
 * on each read (a delete and a set) made V8 allocate a new hash table for the Map now and then; the tables the old
 * Map pointed to outlived young collections and were left in the old generation, the largest part of what a history
 * page left there (about 11 of 13 KB a page, through the cards' decisions), and so of the full collections that
 * paused a long session's paging (docs/performance.md "Long sessions"). A write past the limit looks for the least
 * recent entry through all of them: only then, and a few thousand entries at most.
 */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, { value: V; used: number }>();
  private clock = 0;

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recent; undefined when absent. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = ++this.clock;
    return entry.value;
  }

  /** Whether the key is kept, without making it more recent. */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): void {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      entry.value = value;
      entry.used = ++this.clock;
      return;
    }
    this.entries.set(key, { value, used: ++this.clock });
    if (this.entries.size > this.limit) this.dropLeastRecent();
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  private dropLeastRecent(): void {
    let oldest: K | undefined;
    let oldestUse = Number.POSITIVE_INFINITY;
    for (const [key, entry] of this.entries) {
      if (entry.used < oldestUse) (oldest = key), (oldestUse = entry.used);
    }
    this.entries.delete(oldest as K);
  }
}
