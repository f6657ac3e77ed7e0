/**
 * How a tool names a file at the start of a line of its result (docs/tools.md "Names in results"). Results are read
 * line by line, by the model and by the card's hit links, so a name holding a line break (or another control
 * character, or starting with a double quote) would tear a line in two or fake one: `notes\nREADME.md:1:text` reads
 * as a hit in README.md. Such a path is shown as a JSON string literal, `"notes\nREADME.md":1:text`, which is also
 * exactly what the model writes back as a path argument. Every other path is shown as it is.
 */

/** C0 and C1 controls, DEL, and the two Unicode line separators; or a leading quote (which would read as quoting). */
const NEEDS_QUOTES = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|^"/;

export function shownPath(path: string): string {
  if (!NEEDS_QUOTES.test(path)) return path;
  // JSON.stringify escapes C0 controls, `"` and `\`; the rest are escaped too so none stays invisible.
  return JSON.stringify(path).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A line that starts with a quoted path (as shownPath writes it): the path and how many characters it took. */
export function readQuotedPath(line: string): { path: string; length: number } | null {
  if (!line.startsWith('"')) return null;
  for (let i = 1; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '"') {
      try {
        const path: unknown = JSON.parse(line.slice(0, i + 1));
        return typeof path === 'string' ? { path, length: i + 1 } : null;
      } catch {
        return null;
      }
    }
  }
  return null;
}
