/**
 * Plain command lines, read without the bash grammar (docs/shell-analysis.md "Cold start"): simple commands of
 * plain words joined by `&&`, `||`, `;` and `|`, such as `git status && npm test | tee out.txt`. A plain word has
 * only letters, digits and `_ - . / : ,` (and one `=` after its first character), so bash passes it on as written:
 * no quotes, escapes, variables, globs, braces, tilde, comments, redirects, substitutions or background jobs can be
 * in the line at all.
 * Declined (the grammar reads the line): any other character, an empty command (`a && && b`, a trailing operator),
 * a command that starts with an assignment (`X=1 cmd`) or an odd first character, and any reserved word or
 * declaration builtin, wherever it stands. Tree-sitter reads a few plain-looking words unlike bash (`a+:`, `a%b`,
 * `x@1`, `==`, `- x=1`); such lines go to it whole, so the two readings never differ.
 * What is accepted is walked by the same code as the grammar's tree (shell.ts `analyzePlain`); `shell-plain.test.ts`
 * checks on a corpus and on generated lines that both readings are equal.
 */

const PLAIN_CHAR = /[A-Za-z0-9_\-./:=,]/;
const BLANK = ' ';
/** An argument: at most one `=`, not first (`--flag=value`, `key=`; the grammar reads `==` or `=x` oddly). */
const ARGUMENT = /^[A-Za-z0-9_\-./:,]+(=[A-Za-z0-9_\-./:,]*)?$/;
/** A command's first word: no `=` (that would be an assignment, `X=1 cmd`), no leading `-` or `,`. */
const COMMAND_NAME = /^[A-Za-z0-9_./:][A-Za-z0-9_\-./:,]*$/;

/** Words the grammar reads as structure (reserved words, declarations) rather than as a command's words. */
const GRAMMAR_WORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'time',
  'coproc',
  'declare',
  'typeset',
  'export',
  'local',
  'readonly',
  'unset',
]);

/** The simple commands of a plain line, each as its words; null when the line is not plain. */
export function splitPlainCommand(line: string): string[][] | null {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  const endWord = () => {
    if (word !== '') words.push(word);
    word = '';
  };
  const endCommand = (): boolean => {
    endWord();
    if (words.length === 0) return false;
    commands.push(words);
    words = [];
    return true;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (PLAIN_CHAR.test(c)) word += c;
    else if (c === BLANK) endWord();
    else if (c === ';') {
      if (!endCommand()) return null;
    } else if (c === '|') {
      if (line[i + 1] === '|') i++;
      if (!endCommand()) return null;
    } else if (c === '&' && line[i + 1] === '&') {
      i++;
      if (!endCommand()) return null;
    } else return null;
  }
  if (!endCommand()) return null;
  for (const command of commands) {
    if (!COMMAND_NAME.test(command[0]!) || !command.every((w) => ARGUMENT.test(w))) return null;
    if (command.some((w) => GRAMMAR_WORDS.has(w))) return null;
  }
  return commands;
}
