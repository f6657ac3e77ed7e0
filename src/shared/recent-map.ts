/**
 * A map that keeps only its `limit` most recently used entries: reading an entry (`get`) or writing it (`set`) makes
 * it the most recent, and a write past the limit drops the least recent. The one bounded cache of the app, in the
 * main process and in the page: models by endpoint, a history card's decision, rendered Markdown, highlighted blocks.
 * (A JavaScript Map keeps insertion order, so the least recent entry is always its first key.)
 */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recent; undefined when absent. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Whether the key is kept, without making it more recent. */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }
}
