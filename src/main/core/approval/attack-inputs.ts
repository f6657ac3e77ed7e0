/**
 * Attack inputs shared by the guard, shell and tool tests (test data, not shipped behaviour): each class of
 * docs/guards.md and docs/shell-analysis.md with the variants generated from it, so the gate and the tools are
 * tested on the same list.
 */

/** Every place git reads hooks or config from, relative to a work tree: writes must be refused. */
export const GIT_PROTECTED_WRITES: readonly string[] = [
  '.git/hooks/pre-commit',
  '.git/hooks/sub/dir/x',
  '.git/config',
  '.git/config.worktree',
  '.git/commondir',
  '.git/modules/sub/hooks/pre-commit',
  '.git/modules/sub/config',
  '.git/modules/sub/config.worktree',
  '.git/modules/libs/deep/config',
  '.git/modules/a/modules/b/hooks/post-checkout',
  '.git/modules/a/modules/b/config',
  '.git/worktrees/wt1/config.worktree',
  '.git/worktrees/wt1/config',
  '.git/worktrees/wt1/gitdir',
  '.git/worktrees/wt1/commondir',
  '.git',
  'sub/.git',
  'sub/.git/hooks/post-merge',
  'vendor/lib/.git/config',
  '.GIT/Modules/Sub/Config',
  '.Git/Worktrees/W/Config.Worktree',
  '.git/HOOKS/pre-push',
];

/** Siblings that stay writable (data, not code). */
export const GIT_WRITABLE: readonly string[] = [
  '.git/objects/ab/cdef',
  '.git/modules/sub/objects/x',
  '.git/worktrees/wt1/HEAD',
  '.git/info/attributes',
  '.git/info/exclude',
  '.gitattributes',
  'hooks/readme.md',
  'config',
  '.githooks-notes.md',
];

/** Repository configs that name more places git runs or reads: [config text, paths then protected]. */
export const GIT_CONFIGURED: readonly [string, readonly string[]][] = [
  ['[core]\n\thooksPath = .githooks\n', ['.githooks/pre-commit', '.githooks/deep/x']],
  ['[core]\n\tbare = false\n\thooksPath = "tools/git hooks" # shared hooks\n', ['tools/git hooks/pre-commit']],
  ['[CORE]\n\tHooksPath=ci/hooks\n', ['ci/hooks/post-checkout']],
  ['[include]\n\tpath = ../shared.gitconfig\n', ['shared.gitconfig']],
  ['[includeIf "gitdir:~/work/"]\n\tpath = conf/extra.inc\n', ['.git/conf/extra.inc']],
];

/**
 * Commands that dash (the usual `/bin/sh`) splits into more than bash does: each would run `touch PWNED` under
 * dash. bash (and the bash grammar the gate uses) reads the touch as part of a quoted word or a comment.
 */
export const DASH_SPLITS: readonly string[] = [
  "ls $'\\' ; touch PWNED #'",
  "echo $'\\' ; touch PWNED #'",
  "ls $'\\\\\\' ; touch PWNED #'",
  "ls x$'\\x41\\' ; touch PWNED #'y",
  "ls $'\\' || touch PWNED #'",
  "echo $'\\' | touch PWNED #'",
  "echo $'\\'\ntouch PWNED #'",
];

/** Spellings bash turns into `secrets` (each with its own quoting or expansion). */
export const SECRETS_SPELLINGS: readonly string[] = [
  'secrets',
  's\\ecrets',
  '"sec"rets',
  "sec''rets",
  "'secrets'",
  '"secrets"',
  "$'secrets'",
  "$'\\x73ecrets'",
  "$'\\163ecrets'",
  "$'sec\\u0072ets'",
  '$"secrets"',
  'secre*',
  'secret?',
  'secret[s]',
  '[s]ecrets',
  's[e]c[r]ets',
  '{secrets,nothing}',
  '{x,secrets}',
  'secre\\\nts',
  'SECRETS',
  'Secre*',
  './secrets',
  './secret[s]',
  'notes/../secrets',
  'x/../secre*',
];

/** Here-documents whose end bash finds before the parser does, hiding `touch PWNED` in what looks like a body. */
export const HEREDOC_HIDES: readonly string[] = [
  'cat <<E"O"F\nhello\nEOF\ntouch PWNED\nE"O"F',
  "cat <<E'O'F\nhello\nEOF\ntouch PWNED\nE'O'F",
  'cat <<E\\OF\nhello\nEOF\ntouch PWNED\nE\\OF',
  'cat <<"E"OF\nhello\nEOF\ntouch PWNED\n"E"OF',
  "cat <<$'EOF'\nhello\nEOF\ntouch PWNED\n$'EOF'",
  'cat <<-E"O"F\n\thello\n\tEOF\ntouch PWNED\nE"O"F',
];

/** Unquoted here-documents whose body runs a command. */
export const HEREDOC_RUNS: readonly string[] = [
  'cat <<EOF\n`touch PWNED`\nEOF',
  'cat <<EOF\n$(touch PWNED)\nEOF',
  'cat <<EOF\nhello ${x:-`touch PWNED`}\nEOF',
  'cat <<-EOF\n\t`touch PWNED`\n\tEOF',
];

/** Quoted here-documents: the body is text, nothing in it runs. */
export const HEREDOC_LITERAL: readonly string[] = [
  "cat <<'EOF'\n`touch PWNED` $(touch PWNED)\nEOF",
  'cat <<"EOF"\n`touch PWNED`\nEOF',
  'cat <<\\EOF\n$(touch PWNED)\nEOF',
];

/** Ways to run `rm` that a deny rule on `rm *` must catch (docs/shell-analysis.md "Command names"). */
export const RM_SPELLINGS: readonly string[] = [
  '/bin/rm -rf x',
  '\\rm -rf x',
  '"rm" -rf x',
  "r''m -rf x",
  'r\\m -rf x',
  "$'rm' -rf x",
  "$'\\x72m' -rf x",
  '/usr/bin/../bin/rm x',
  '/bin/r[m] -rf x',
  'r{m,} x',
  'command rm x',
  'env rm x',
  'env -i FOO=1 rm x',
  '/usr/bin/env rm x',
  'exec rm x',
  'nohup rm x',
  'sudo rm x',
  'sudo -u root rm x',
  'timeout 5 rm x',
  'nice -n 5 rm x',
  'time rm x',
  'xargs rm < list.txt',
  'xargs -0 rm',
  'find . -exec rm {} \\;',
  'find . -execdir rm -f {} +',
  "bash -c 'rm -rf x'",
  'sh -c "rm x"',
  "bash -lc 'cd /; rm x'",
  'eval rm x',
  "eval 'rm x'",
  '{ rm x; }',
  '(rm x)',
  'if true; then rm x; fi',
  'for f in a; do rm $f; done',
  'echo $(rm x)',
  'echo `rm x`',
  'cat <<EOF\n`rm x`\nEOF',
  'git status && rm x',
  'ls | xargs rm',
  "env bash -c 'rm x'",
  "sudo sh -c 'env rm x'",
  '! rm x',
];
