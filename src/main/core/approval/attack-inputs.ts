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
