/**
 * What an approval card shows for a write (reference-facts.md §3 `pending_write`): the file's current content and
 * the content the call would produce, computed without touching the disk. `execute_cmd` and `restart` show
 * `$ <command>`. Files over 1 MB are not previewed (the card still shows the full arguments).
 */
import { readFileSync, statSync } from 'node:fs';
import { TN } from '../../../shared/tool-names';
import type { ToolArgs } from '../tools/tool';

const MAX_PREVIEW_BYTES = 1024 * 1024;

export interface WritePreview {
  path: string;
  oldContent: string | null;
  newContent: string | null;
}

function currentContent(path: string): string | null {
  try {
    const info = statSync(path);
    if (!info.isFile() || info.size > MAX_PREVIEW_BYTES) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null);

function applyEdit(old: string | null, args: ToolArgs): string | null {
  const find = str(args.old_string) ?? str(args.old_text) ?? str(args.search);
  const replace = str(args.new_string) ?? str(args.new_text) ?? str(args.replace) ?? '';
  if (old === null || find === null || find === '') return null;
  if (args.replace_all === true) return old.split(find).join(replace);
  const at = old.indexOf(find);
  return at < 0 ? null : old.slice(0, at) + replace + old.slice(at + find.length);
}

function applyLines(old: string | null, name: string, args: ToolArgs): string | null {
  if (old === null) return null;
  const lines = old.split('\n');
  // As the tools do: one trailing newline ends the last inserted line, it does not add an empty one.
  const content = (str(args.content) ?? str(args.text) ?? '').replace(/\n$/, '');
  if (name === TN.INSERT_AT_LINE) {
    const line = int(args.line) ?? int(args.line_number);
    if (line === null) return null;
    lines.splice(Math.max(0, line - 1), 0, ...content.split('\n'));
    return lines.join('\n');
  }
  const start = int(args.start_line);
  const end = int(args.end_line);
  if (start === null || end === null || end < start) return null;
  lines.splice(start - 1, end - start + 1, ...content.split('\n'));
  return lines.join('\n');
}

export function previewWrite(name: string, args: ToolArgs): WritePreview | null {
  if (name === TN.EXECUTE_CMD) return { path: '$ execute_cmd', oldContent: null, newContent: `$ ${str(args.command) ?? ''}` };
  if (name === TN.RESTART) return { path: '$ restart', oldContent: null, newContent: '$ restart' };
  const path = str(args.path);
  if (path === null) return null;
  const old = currentContent(path);
  switch (name) {
    case TN.WRITE_FILE:
      return { path, oldContent: old, newContent: str(args.content) };
    case TN.EDIT_FILE:
      return { path, oldContent: old, newContent: applyEdit(old, args) };
    case TN.INSERT_AT_LINE:
    case TN.REPLACE_LINES:
      return { path, oldContent: old, newContent: applyLines(old, name, args) };
    default:
      return null;
  }
}
