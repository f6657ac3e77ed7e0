/**
 * A command's output on its card: the last lines shown collapsed with the exit code, and a visible control to see
 * all of it. The result text ends with the tool's status line (`[exit code N]`, `[killed by signal X]`,
 * `[timed out after …]`), which becomes the badge.
 */
import { useState } from 'react';

const STATUS_LINE = /^\[(exit code (-?\d+|unknown)|killed by signal \w+|timed out after [^\]]*)\]$/;
export const TAIL_LINES = 6;

export function splitShellResult(result: string): { lines: string[]; status: string | null; ok: boolean } {
  const lines = result.replace(/\n+$/, '').split('\n');
  const last = lines.at(-1) ?? '';
  const match = STATUS_LINE.exec(last);
  if (!match) return { lines, status: null, ok: false };
  lines.pop();
  return { lines: lines.length === 1 && lines[0] === '' ? [] : lines, status: match[1]!, ok: match[2] === '0' };
}

export function ShellOutput({ result, failed }: { result: string; failed: boolean }) {
  const [open, setOpen] = useState(false);
  const { lines, status, ok } = splitShellResult(result);
  const hidden = Math.max(0, lines.length - TAIL_LINES);
  const shown = open ? lines : lines.slice(-TAIL_LINES);
  return (
    <div className="shell-output" data-testid="shell-output">
      <div className="shell-output-head">
        {status && (
          <span className={`exit-badge ${ok && !failed ? 'exit-ok' : 'exit-bad'}`} data-testid="exit-code">
            {status}
          </span>
        )}
        <span className="muted small">
          {lines.length === 0 ? 'no output' : `${lines.length} line${lines.length === 1 ? '' : 's'} of output`}
        </span>
        {hidden > 0 && (
          <button
            className="link-button small"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
            data-testid="shell-output-toggle"
          >
            {open ? 'Show the last lines only' : `Show all ${lines.length} lines`}
          </button>
        )}
      </div>
      {shown.length > 0 && (
        <pre className="result">
          {!open && hidden > 0 && (
            <span className="muted">
              … {hidden} earlier line{hidden === 1 ? '' : 's'}
              {'\n'}
            </span>
          )}
          {shown.join('\n')}
        </pre>
      )}
    </div>
  );
}
