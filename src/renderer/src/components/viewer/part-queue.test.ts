import { describe, expect, it } from 'vitest';
import { PartQueue } from './part-queue';

/** A queue whose tasks run when the test says, and whose clock moves by `cost` per rendered part. */
function harness(cost = 5, budget = 8) {
  let clock = 0;
  const tasks: (() => void)[] = [];
  const rendered: string[] = [];
  const queue = new PartQueue(
    (text) => {
      rendered.push(text);
      clock += cost;
      return { html: `<p>${text}</p>` };
    },
    (value) => ({ ...value }),
    budget,
    (run) => {
      tasks.push(run);
      return () => tasks.splice(tasks.indexOf(run), 1);
    },
    () => clock,
  );
  let notified = 0;
  queue.subscribe(() => notified++);
  const runTask = () => tasks.shift()?.();
  return { queue, tasks, rendered, runTask, notified: () => notified };
}

describe('PartQueue', () => {
  it('renders in the background within its budget per task, and tells the view in the task after', () => {
    const h = harness(5, 8);
    h.queue.setParts(['a', 'b', 'c', 'd', 'e']);
    expect(h.rendered).toEqual([]);
    h.runTask(); // renders until 8 ms are spent: two parts of 5 ms
    expect(h.rendered).toEqual(['a', 'b']);
    expect(h.notified()).toBe(0);
    h.runTask(); // the view learns of a and b
    expect(h.notified()).toBe(1);
    expect(h.queue.partOf(1)).toEqual({ html: '<p>b</p>' });
    while (h.tasks.length) h.runTask();
    expect(h.rendered).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(h.queue.isDone()).toBe(true);
    expect(h.notified()).toBe(3);
  });

  it('renders the parts in view first', () => {
    const h = harness(5, 1);
    h.queue.setParts(['a', 'b', 'c', 'd', 'e']);
    h.queue.want(3);
    h.runTask();
    expect(h.rendered).toEqual(['d']);
    h.queue.want(3); // already rendered: nothing to do
    while (h.tasks.length) h.runTask();
    expect(h.rendered).toEqual(['d', 'a', 'b', 'c', 'e']);
  });

  it('renders only the parts in view while the document is still being read', () => {
    const h = harness();
    h.queue.setParts(['a', 'b', 'c'], false);
    expect(h.tasks).toHaveLength(0);
    h.queue.want(2);
    while (h.tasks.length) h.runTask();
    expect(h.rendered).toEqual(['c']);
  });

  it('a reload renders only the parts whose text changed, and copies a part that appears twice', () => {
    const h = harness();
    h.queue.setParts(['a', 'b', 'c']);
    while (h.tasks.length) h.runTask();
    const b = h.queue.partOf(1);
    h.queue.setParts(['a', 'b', 'B', 'c', 'b']);
    expect(h.queue.partOf(1)).toBe(b);
    expect(h.queue.partOf(4)).toEqual(b);
    expect(h.queue.partOf(4)).not.toBe(b);
    while (h.tasks.length) h.runTask();
    expect(h.rendered).toEqual(['a', 'b', 'c', 'B']);
  });

  it('renderNow serves a jump at once; dispose stops the tasks', () => {
    const h = harness();
    h.queue.setParts(['a', 'b', 'c']);
    expect(h.queue.renderNow(2)).toBe(true);
    expect(h.queue.renderNow(2)).toBe(false);
    h.queue.dispose();
    expect(h.tasks).toHaveLength(0);
    expect(h.queue.renderedCount()).toBe(1);
  });
});
