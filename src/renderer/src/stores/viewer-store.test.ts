/** Tabs: one per file (reused by path and by resolved absolute path), closing picks a neighbour, handles let go. */
import { beforeEach, describe, expect, it } from 'vitest';
import { lineOfToolCall } from '../components/viewer/tool-range';
import { closeTab, cycleTab, onReleaseHandle, openInViewer, resetViewerStore, tabResolved, viewerFileChanged, viewerStore } from './viewer-store';

let released: string[];
beforeEach(() => {
  resetViewerStore();
  released = [];
  onReleaseHandle((h) => released.push(h));
});

describe('viewer tabs', () => {
  it('reuses the tab of a path already open, and of a file open under another path', () => {
    const a = openInViewer('notes/a.md');
    expect(openInViewer('notes/a.md')).toBe(a);
    tabResolved(a, '/ws/notes/a.md', 'a.md', 'h1');
    expect(openInViewer('/ws/notes/a.md')).toBe(a);
    const dup = openInViewer('./notes/a.md');
    tabResolved(dup, '/ws/notes/a.md', 'a.md', 'h2');
    const { tabs, activeId } = viewerStore.getState();
    expect(tabs).toHaveLength(1);
    expect(activeId).toBe(a);
    expect(released).toEqual(['h2']);
  });

  it("a tab that folds into one already open brings its line along (a second tool call's range)", () => {
    const a = openInViewer('src/long.ts', { line: 120, toolCallId: 'call-1' });
    tabResolved(a, '/ws/src/long.ts', 'long.ts', 'h1');
    const again = openInViewer('src/long.ts', { line: 250, toolCallId: 'call-2' });
    expect(again).not.toBe(a); // the first tab now holds its absolute path; the new one resolves first
    tabResolved(again, '/ws/src/long.ts', 'long.ts', 'h2');
    const { tabs, activeId } = viewerStore.getState();
    expect(tabs).toHaveLength(1);
    expect(activeId).toBe(a);
    expect(tabs[0]).toMatchObject({ line: 250, toolCallId: 'call-2' });
  });

  it('closing the active tab activates its neighbour and lets go of its handle', () => {
    const a = openInViewer('a');
    const b = openInViewer('b');
    const c = openInViewer('c');
    tabResolved(b, '/b', 'b', 'hb');
    viewerStore.setState({ activeId: b });
    closeTab(b);
    expect(viewerStore.getState().activeId).toBe(c);
    expect(released).toEqual(['hb']);
    cycleTab(1);
    expect(viewerStore.getState().activeId).toBe(a);
    cycleTab(-1);
    expect(viewerStore.getState().activeId).toBe(c);
  });

  it('a changed file reloads the tab that holds its handle', () => {
    const a = openInViewer('a');
    tabResolved(a, '/a', 'a', 'ha');
    viewerFileChanged('ha');
    viewerFileChanged('unknown');
    expect(viewerStore.getState().tabs[0]!.reloadKey).toBe(1);
  });
});

describe('the line a tool call names', () => {
  it('reads read_file offset, insert_at_line, replace_lines and search hits', () => {
    expect(lineOfToolCall({ name: 'read_file', arguments: '{"path":"a","offset":40}', result: null })).toBe(40);
    expect(lineOfToolCall({ name: 'insert_at_line', arguments: '{"path":"a","line":"7"}', result: null })).toBe(7);
    expect(lineOfToolCall({ name: 'replace_lines', arguments: '{"path":"a","start_line":3,"end_line":5}', result: null })).toBe(3);
    expect(lineOfToolCall({ name: 'search_file', arguments: '{"path":"a"}', result: 'a.ts\n  12: const x = 1' })).toBe(12);
    expect(lineOfToolCall({ name: 'write_file', arguments: '{"path":"a"}', result: null })).toBeNull();
    expect(lineOfToolCall({ name: 'read_file', arguments: 'not json', result: null })).toBeNull();
  });
});
