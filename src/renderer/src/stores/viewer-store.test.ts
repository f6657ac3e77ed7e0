/** Tabs: one per file (reused by path and by resolved absolute path), closing picks a neighbour, handles let go. */
import { beforeEach, describe, expect, it } from 'vitest';
import { lineOfToolCall, searchHits } from '../components/viewer/tool-range';
import {
  closeTab,
  cycleTab,
  onReleaseHandle,
  openInViewer,
  resetViewerStore,
  tabResolved,
  viewerFileChanged,
  viewerStore,
} from './viewer-store';

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

  it('asking for the same line again is a new request (it reveals the line again after the person scrolled away)', () => {
    const a = openInViewer('src/long.ts', { line: 120 });
    const first = viewerStore.getState().tabs[0]!.lineRequest;
    expect(openInViewer('src/long.ts', { line: 120 })).toBe(a);
    const second = viewerStore.getState().tabs[0]!.lineRequest;
    expect(second).toBeGreaterThan(first);
    openInViewer('src/long.ts'); // no line named: the request stays
    expect(viewerStore.getState().tabs[0]).toMatchObject({ line: 120, lineRequest: second });
    // A tab that folds into another brings its request along, so the same line is revealed again there too.
    tabResolved(a, '/ws/src/long.ts', 'long.ts', 'h1');
    const again = openInViewer('./src/long.ts', { line: 120 });
    const third = viewerStore.getState().tabs.find((t) => t.id === again)!.lineRequest;
    tabResolved(again, '/ws/src/long.ts', 'long.ts', 'h2');
    expect(viewerStore.getState().tabs).toEqual([expect.objectContaining({ id: a, line: 120, lineRequest: third })]);
    expect(third).toBeGreaterThan(second);
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

/** A card as the core makes it: a search tool's display is its hits (shared/tool-traits.ts). */
const card = (name: string, args: string, result: string | null) => ({
  arguments: args,
  result,
  display:
    name === 'search_file' ? ('file_hits' as const) : name === 'grep_files' ? ('folder_hits' as const) : undefined,
});

describe('the line a tool call names', () => {
  it('reads read_file offset, insert_at_line, replace_lines and search hits', () => {
    expect(lineOfToolCall(card('read_file', '{"path":"a","offset":40}', null))).toBe(40);
    expect(lineOfToolCall(card('insert_at_line', '{"path":"a","line":"7"}', null))).toBe(7);
    expect(lineOfToolCall(card('replace_lines', '{"path":"a","start_line":3,"end_line":5}', null))).toBe(3);
    expect(lineOfToolCall(card('search_file', '{"path":"a"}', 'a.ts\n  12: const x = 1'))).toBe(12);
    expect(lineOfToolCall(card('write_file', '{"path":"a"}', null))).toBeNull();
    expect(lineOfToolCall(card('read_file', 'not json', null))).toBeNull();
  });
});

describe("a search tool's hits", () => {
  const hitsOf = (name: string, args: object, result: string) =>
    searchHits(card(name, JSON.stringify(args), result))?.map(
      (l) => l.hit && { ...l.hit, at: l.text.slice(0, l.hit.prefix) },
    );

  it('search_file: each matching line is a hit in the file searched; the head and context lines are not', () => {
    const result =
      '2 matching lines in src/a.ts:\n11-before\n12:const x = 1\n--\n40:x: 2 // 3:4\n[first 200 matching lines shown]';
    expect(hitsOf('search_file', { path: 'src/a.ts', pattern: 'x' }, result)).toEqual([
      null,
      null,
      { path: 'src/a.ts', line: 12, prefix: 2, at: '12' },
      null,
      { path: 'src/a.ts', line: 40, prefix: 2, at: '40' },
      null,
    ]);
    expect(
      hitsOf('search_file', { file_path: 'b.ts', pattern: 'x' }, '1 matching line in b.ts:\n3:x')?.[1],
    ).toMatchObject({ path: 'b.ts', line: 3 });
  });

  it('grep_files: path:line:text under the folder searched (or the file itself), context lines and notes are not hits', () => {
    const result = 'lib/a.ts-9-before\nlib/a.ts:10:const y = 1:2\n--\nb-1-c.ts:7:z\n[2 matching lines; end of results]';
    expect(hitsOf('grep_files', { pattern: 'y', path: 'src/' }, result)).toEqual([
      null,
      { path: 'src/lib/a.ts', line: 10, prefix: 11, at: 'lib/a.ts:10' },
      null,
      { path: 'src/b-1-c.ts', line: 7, prefix: 10, at: 'b-1-c.ts:7' },
      null,
    ]);
    expect(hitsOf('grep_files', { pattern: 'y' }, 'lib/a.ts:10:y')).toEqual([
      { path: 'lib/a.ts', line: 10, prefix: 11, at: 'lib/a.ts:10' },
    ]);
    expect(hitsOf('grep_files', { pattern: 'y', directory: '/ws/src' }, 'a.ts:1:y')?.[0]).toMatchObject({
      path: '/ws/src/a.ts',
    });
    // One file searched: the hit's path is that file's name.
    expect(hitsOf('grep_files', { pattern: 'y', path: 'src/a.ts' }, 'a.ts:4:y')?.[0]).toMatchObject({
      path: 'src/a.ts',
      line: 4,
    });
  });

  it('grep_files: a name quoted as a JSON string (a line break in it) is a hit in the file of that name, not a torn line', () => {
    const result =
      '"notes\\nREADME.md":1:needle\n"dir\\nsub/a\\"b.ts":22:x\n"broken:3:y\n[2 matching lines; end of results]';
    expect(hitsOf('grep_files', { pattern: 'x', path: 'src' }, result)).toEqual([
      { path: 'src/notes\nREADME.md', line: 1, prefix: 20, at: '"notes\\nREADME.md":1' },
      { path: 'src/dir\nsub/a"b.ts', line: 22, prefix: 21, at: '"dir\\nsub/a\\"b.ts":22' },
      null,
      null,
    ]);
  });

  it('no hits for other modes, other tools, or a line number that is not one', () => {
    expect(searchHits(card('grep_files', '{"pattern":"y","output_mode":"count"}', 'a.ts:3'))).toBeNull();
    expect(searchHits(card('read_file', '{"path":"a"}', '1:x'))).toBeNull();
    expect(searchHits(card('search_file', 'not json', '1:x'))).toBeNull();
    expect(hitsOf('search_file', { path: 'a' }, '0:x')).toEqual([null]);
  });
});
