/**
 * Opaque, short-lived handles, each bound to one file (docs/viewer.md "Handles"). A handle is 24 random bytes
 * (base64url): it names nothing and cannot be guessed or built from a path. It remembers the file's lexical
 * and real path at the time it was issued and whether the person confirmed a file outside the working directory;
 * every request re-applies the read policy and refuses when the real path is no longer the one it was bound to.
 * Handles expire after IDLE_MS unused and the oldest go first past MAX_HANDLES.
 */
import { randomBytes } from 'node:crypto';
import type { KindInfo } from './file-kinds';

export interface HandleRecord {
  token: string;
  absolute: string;
  real: string;
  display: string;
  /** The working directory the policy is checked against on every request. */
  workingDir: string;
  isOutside: boolean;
  /** The person said yes to this outside file (only then is `isOutside` served). */
  isOutsideConfirmed: boolean;
  kind: KindInfo;
  lastUsedAt: number;
}

export const IDLE_MS = 30 * 60_000;
export const MAX_HANDLES = 500;

export class HandleRegistry {
  private readonly records = new Map<string, HandleRecord>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(record: Omit<HandleRecord, 'token' | 'lastUsedAt'>): HandleRecord {
    this.sweep();
    const full: HandleRecord = { ...record, token: randomBytes(24).toString('base64url'), lastUsedAt: this.now() };
    this.records.set(full.token, full);
    while (this.records.size > MAX_HANDLES) this.records.delete(this.records.keys().next().value!);
    return full;
  }

  /** The live record of a token, touched (moved to the back of the eviction order); null when unknown or expired. */
  use(token: string): HandleRecord | null {
    const record = this.records.get(token);
    if (!record) return null;
    if (this.now() - record.lastUsedAt > IDLE_MS) {
      this.records.delete(token);
      return null;
    }
    record.lastUsedAt = this.now();
    this.records.delete(token);
    this.records.set(token, record);
    return record;
  }

  /** Whether a token is live, without touching it. */
  peek(token: string): boolean {
    const record = this.records.get(token);
    return record !== undefined && this.now() - record.lastUsedAt <= IDLE_MS;
  }

  release(token: string): void {
    this.records.delete(token);
  }

  size(): number {
    return this.records.size;
  }

  private sweep(): void {
    const cutoff = this.now() - IDLE_MS;
    for (const [token, record] of this.records) if (record.lastUsedAt < cutoff) this.records.delete(token);
  }
}
