/**
 * Live reload from disk (docs/viewer.md "Live reload"): one chokidar watcher for every file an open handle shows
 * (and, for a LaTeX document, every input its last build read). A change is reported once per handle after
 * DEBOUNCE_MS of quiet, so an editor's save-in-three-steps or a rename-over (atomic write) is one reload; a file
 * that never goes quiet (a log a running command appends to every few milliseconds) is reported at least every
 * MAX_WAIT_MS, else its tab would show the file as it was when opened for as long as the writing lasts.
 * Handles that went away are dropped when their file next changes; `dispose` closes the watcher.
 */
import { watch, type FSWatcher } from 'chokidar';

export const DEBOUNCE_MS = 300;
export const MAX_WAIT_MS = 1000;

export class FileWatcher {
  private watcher: FSWatcher | null = null;
  private readonly byPath = new Map<string, Set<string>>();
  private readonly byHandle = new Map<string, Set<string>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** When each handle's first change not yet reported came (performance.now()). */
  private readonly waitingSince = new Map<string, number>();

  constructor(
    private readonly onChange: (handle: string, path: string) => void,
    private readonly isLive: (handle: string) => boolean,
  ) {}

  add(handle: string, paths: readonly string[]): void {
    const mine = this.byHandle.get(handle) ?? new Set<string>();
    this.byHandle.set(handle, mine);
    const fresh: string[] = [];
    for (const path of paths) {
      mine.add(path);
      let handles = this.byPath.get(path);
      if (!handles) {
        this.byPath.set(path, (handles = new Set()));
        fresh.push(path);
      }
      handles.add(handle);
    }
    if (fresh.length === 0) return;
    if (!this.watcher) {
      this.watcher = watch(fresh, { ignoreInitial: true, persistent: false, atomic: true });
      this.watcher.on('all', (_event, path) => this.changed(path));
      this.watcher.on('error', () => {}); // a vanished folder: the next resolve reports it
    } else {
      this.watcher.add(fresh);
    }
  }

  remove(handle: string): void {
    const paths = this.byHandle.get(handle);
    if (!paths) return;
    this.byHandle.delete(handle);
    for (const path of paths) {
      const handles = this.byPath.get(path);
      handles?.delete(handle);
      if (handles && handles.size === 0) {
        this.byPath.delete(path);
        void this.watcher?.unwatch(path);
      }
    }
  }

  watchedPaths(): number {
    return this.byPath.size;
  }

  private changed(path: string): void {
    for (const handle of [...(this.byPath.get(path) ?? [])]) {
      if (!this.isLive(handle)) {
        this.remove(handle);
        continue;
      }
      clearTimeout(this.timers.get(handle));
      const now = performance.now();
      const since = this.waitingSince.get(handle) ?? now;
      this.waitingSince.set(handle, since);
      const delay = Math.max(0, Math.min(DEBOUNCE_MS, since + MAX_WAIT_MS - now));
      this.timers.set(
        handle,
        setTimeout(() => {
          this.timers.delete(handle);
          this.waitingSince.delete(handle);
          if (this.isLive(handle)) this.onChange(handle, path);
        }, delay),
      );
    }
  }

  async dispose(): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.waitingSince.clear();
    await this.watcher?.close();
    this.watcher = null;
  }
}
