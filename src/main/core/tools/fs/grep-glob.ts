/** The `glob` filter of grep_files, for the JS engine's walk (ripgrep takes the glob itself). */
import { ToolError } from '../define-tool';

/** A small glob (`*`, `**`, `?`, `{a,b}`) as a regex; a glob without `/` matches the file name only. */
export function globMatcher(glob: string): (rel: string) => boolean {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
        i += glob[i + 2] === '/' ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') re += '(?:';
    else if (c === '}') re += ')';
    else if (c === ',') re += glob.slice(0, i).lastIndexOf('{') > glob.slice(0, i).lastIndexOf('}') ? '|' : ',';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  let compiled: RegExp;
  try {
    compiled = new RegExp(`^${re}$`);
  } catch {
    // Only braces can leave the pattern unbalanced: every other character is escaped or maps to a closed group.
    throw new ToolError(
      `glob "${glob}" is not a valid glob: its { and } do not pair up. Close each {a,b} group, or leave the braces out.`,
    );
  }
  const byName = !glob.includes('/');
  return (rel) => compiled.test(byName ? rel.slice(rel.lastIndexOf('/') + 1) : rel);
}
