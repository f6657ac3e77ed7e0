/**
 * A command's output as a terminal would show it, for the model and the card (docs/tools.md "execute_cmd's output").
 * Programs write for terminals: colour and cursor sequences (`ESC[31m`, a hyperlink's `ESC]8;;…BEL`) and progress
 * lines redrawn with carriage returns (`10%\r20%\r…\r100%`). Kept raw, they cost the model tokens for nothing and
 * show on the card as `[31m` and a thousand stacked percentages. Escape sequences are taken out (Node's own
 * `stripVTControlCharacters`), and each carriage return overwrites its line from the start, as on a terminal.
 */
import { stripVTControlCharacters } from 'node:util';

export function terminalText(raw: string): string {
  const text = raw.includes('\u001b') || raw.includes('\u009b') ? stripVTControlCharacters(raw) : raw;
  if (!text.includes('\r')) return text;
  return text.split('\n').map(overwritten).join('\n');
}

/** `abcdef\rXY` shows `XYcdef`; a trailing `\r` (a CRLF line end) changes nothing. */
function overwritten(line: string): string {
  if (!line.includes('\r')) return line;
  let shown = '';
  for (const part of line.split('\r')) shown = part + shown.slice(part.length);
  return shown;
}
