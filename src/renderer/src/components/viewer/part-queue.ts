/**
 * Renders the parts of a large Markdown document a few at a time (docs/viewer.md "Large Markdown"): the parts the
 * person can see first, then the rest in document order, in short tasks that stop after `budgetMs` so the page never
 * blocks (a part is about PART_CHARS of Markdown); the view is told of new parts in the task after, so putting
 * them on screen is a short task of its own. What a part rendered to is kept by its text, so a reload renders only
 * the parts that changed and the others keep their place on screen (and the scroll position with them).
 * Plain TypeScript (no React, no DOM): the view subscribes per part.
 */

export type RenderPart<T> = (text: string) => T;
export type Schedule = (run: () => void) => () => void;

/** A new task at once: a message to ourselves (nested `setTimeout(0)` waits 4 ms each time; hundreds of parts add up). */
export const nextTask: Schedule = (run) => {
  if (typeof MessageChannel === 'undefined') {
    const timer = setTimeout(run, 0);
    return () => clearTimeout(timer);
  }
  const channel = new MessageChannel();
  let isLive = true;
  channel.port1.onmessage = () => {
    channel.port1.close();
    if (isLive) run();
  };
  channel.port2.postMessage(null);
  return () => {
    isLive = false;
    channel.port1.close();
  };
};

export class PartQueue<T> {
  private parts: string[] = [];
  private done: (T | null)[] = [];
  private byText = new Map<string, T>();
  private readonly wanted = new Set<number>();
  private readonly listeners = new Set<() => void>();
  private cursor = 0;
  private cancel: (() => void) | null = null;
  private isDisposed = false;
  /** Parts rendered by the last task that the view has not been told about yet. */
  private isDirty = false;
  /** Whether parts out of view render too (not while the document is still being read: its parts may change). */
  private isBackground = true;

  constructor(
    private readonly render: RenderPart<T>,
    /** A second part with the same text gets its own copy (a DOM node can be in one place only). */
    private readonly copy: (value: T) => T = (value) => value,
    private readonly budgetMs = 8,
    private readonly schedule: Schedule = nextTask,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A new text (first load or reload): parts already rendered with the same text keep what they rendered. */
  setParts(parts: string[], isBackground = true): void {
    this.parts = parts;
    this.isBackground = isBackground;
    const kept = this.byText;
    const given = new Set<string>();
    this.done = parts.map((p) => {
      const value = kept.get(p);
      if (value === undefined) return null;
      if (!given.has(p)) {
        given.add(p);
        return value;
      }
      return this.copy(value);
    });
    this.byText = new Map();
    parts.forEach((p, i) => this.done[i] !== null && !this.byText.has(p) && this.byText.set(p, this.done[i]!));
    this.wanted.clear();
    this.cursor = 0;
    // No notify: the view renders the new parts from its own props (this runs while it renders).
    this.kick();
  }

  count(): number {
    return this.parts.length;
  }

  partOf(index: number): T | null {
    return this.done[index] ?? null;
  }

  renderedCount(): number {
    return this.done.reduce((n, h) => n + (h === null ? 0 : 1), 0);
  }

  isDone(): boolean {
    return this.parts.length > 0 && this.done.every((h) => h !== null);
  }

  /** Renders one part now (the first screen, a jump to a heading); returns whether anything changed. */
  renderNow(index: number): boolean {
    if (index < 0 || index >= this.parts.length || this.done[index] !== null) return false;
    const text = this.parts[index]!;
    const value = this.render(text);
    this.done[index] = value;
    if (!this.byText.has(text)) this.byText.set(text, value);
    this.wanted.delete(index);
    return true;
  }

  /** A part came into view: it goes before the background order. */
  want(index: number): void {
    if (this.done[index] !== null && this.done[index] !== undefined) return;
    this.wanted.add(index);
    this.kick();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.isDisposed = true;
    this.cancel?.();
    this.cancel = null;
    this.listeners.clear();
  }

  /** Tells the view that parts changed (after `renderNow` outside the background tasks). */
  notify(): void {
    this.isDirty = false;
    for (const listener of [...this.listeners]) listener();
  }

  private nextIndex(): number {
    for (const i of this.wanted) {
      if (this.done[i] === null) return i;
      this.wanted.delete(i);
    }
    if (!this.isBackground) return -1;
    while (this.cursor < this.parts.length && this.done[this.cursor] !== null) this.cursor++;
    return this.cursor < this.parts.length ? this.cursor : -1;
  }

  private kick(): void {
    if (this.cancel || this.isDisposed || (!this.isDirty && this.nextIndex() < 0)) return;
    this.cancel = this.schedule(() => this.pump());
  }

  /**
   * One task: either show what the last task rendered (the view commits it in this task), or render parts until
   * the budget is spent. Rendering and committing in separate tasks keeps each of them short.
   */
  private pump(): void {
    this.cancel = null;
    if (this.isDisposed) return;
    if (this.isDirty) {
      this.isDirty = false;
      this.notify();
    } else {
      const started = this.now();
      for (let i = this.nextIndex(); i >= 0; i = this.nextIndex()) {
        this.isDirty = this.renderNow(i) || this.isDirty;
        if (this.now() - started >= this.budgetMs) break;
      }
    }
    this.kick();
  }
}
