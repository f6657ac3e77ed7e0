/**
 * The repository's own shell attack family (approval/attack-inputs.ts, and the forms approval/shell-attacks.test.ts
 * judges them in), run once more as if the gate allowed everything: every command runs in the sandbox, as it would
 * for a person who approves every card. Whatever the command, nothing outside the working folder changes (the
 * sibling folder, the data folder, the home folder: snapshot before and after), git's hooks and config inside it stay
 * as they were, and no output carries a secret. Run from the working folder and again from the folder beside it.
 * Check ids (X10) are listed in docs/security-checks.md.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASH_SPLITS, HEREDOC_HIDES, HEREDOC_RUNS, RM_SPELLINGS, SECRETS_SPELLINGS } from '../approval/attack-inputs';
import { makeSandboxKit, SECRET_CONTENTS, type SandboxKit } from './test-kit';

let k: SandboxKit;
beforeAll(() => {
  k = makeSandboxKit();
});
afterAll(() => k.cleanup());

/** The forms shell-attacks.test.ts judges each spelling of `secrets` in, and the same secret carried outside. */
const SECRET_FORMS = [
  'cat S/key.txt',
  'head -n1 S/key.txt',
  'grep -r TOP S',
  'cp S/key.txt /tmp/x && cat /tmp/x',
  'tar cf /tmp/a.tar docs S && tar xOf /tmp/a.tar',
  'cp S/key.txt ../../sibling/leak.txt',
  'cp -r S ../../sibling/',
];
/** The spellings of git's places that shell-attacks.test.ts redirects into. */
const GIT_TARGETS = [
  '.git/hooks/pre-commit',
  '.git\\/hooks/pre-commit',
  '.gi\\t/hooks/pre-commit',
  '".git"/hooks/pre-commit',
  ".g'i't/config",
  '.gi?/hooks/pre-commit',
  '.git/h*/pre-commit',
  '.git/modules/sub/hooks/x',
  '.git/worktrees/w/config.worktree',
  "$'.git'/config",
];
const GIT_FORMS = ['echo x > T', 'echo x >> T', 'cp /etc/hostname T', 'echo x | tee T', 'mkdir -p T && echo x > T/y'];
/** shell-attacks.test.ts's paths into the data folder (the working folder is inside it), and writes there. */
const DATA_COMMANDS = [
  'ls > ..\\/x',
  'cat ../settings.json',
  'cat ..\\/settings.json',
  'cat "../"settings.json',
  'cat ../sett*',
  'cp docs/readme.md ..\\/skald.db',
  'cd .. && cat settings.json',
  'ls ../*',
  'echo {} > ../settings.json',
  'rm -rf ../skald.db',
  'cd .. && rm -rf -- *',
  'find .. -name "*.json" -delete',
];
/** Outside the working folder, as each family spells its target. */
const OUT = '../../sibling';

function family(): string[] {
  return [
    ...SECRETS_SPELLINGS.flatMap((spelling) => SECRET_FORMS.map((form) => form.replace('S', spelling))),
    ...GIT_TARGETS.flatMap((target) => GIT_FORMS.map((form) => form.replaceAll('T', target))),
    ...DATA_COMMANDS,
    // `rm x` in every spelling, aimed at the sibling folder and at the data folder.
    ...RM_SPELLINGS.flatMap((command) => [
      command.replace(/\bx\b/g, `${OUT}/file.txt`),
      command.replace(/\bx\b/g, '../settings.json'),
    ]),
    // The commands that hide or run `touch PWNED`, with it aimed outside.
    ...[...DASH_SPLITS, ...HEREDOC_HIDES, ...HEREDOC_RUNS].map((command) =>
      command.replaceAll('touch PWNED', `touch ${OUT}/PWNED; touch ../PWNED`),
    ),
  ];
}

/** Runs commands four at a time (each is a process of its own); returns every output. */
async function runAll(commands: string[], workdir?: string): Promise<string[]> {
  const outputs: string[] = [];
  for (let i = 0; i < commands.length; i += 4)
    outputs.push(
      ...(await Promise.all(commands.slice(i, i + 4).map((command) => k.text(command, workdir ? { workdir } : {})))),
    );
  return outputs;
}

describe('the shell attack family, every command allowed, in the sandbox', () => {
  it('changes nothing outside the working folder, nor git’s hooks and config, and shows no secret', async () => {
    const before = k.snapshot();
    const commands = family();
    expect(commands.length).toBeGreaterThan(250);
    const outputs = [...(await runAll(commands)), ...(await runAll(commands, k.sibling))];
    const after = k.snapshot();
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p));
    expect(changed).toEqual([]);
    expect(existsSync(join(k.sibling, 'PWNED'))).toBe(false);
    const all = outputs.join('\n');
    for (const secret of Object.values(SECRET_CONTENTS)) expect(all).not.toContain(secret);
    // The commands ran (they were not refused before starting): most end with a sandbox sentence or an error.
    expect(outputs.filter((o) => /\[exit code \d+\]/.test(o)).length).toBe(outputs.length);
    // Unconfined, the family's commands do reach outside: the test can fail.
    await k.text(`cp secrets/key.txt ${OUT}/leak.txt`, { decision: { mode: 'unconfined' } });
    expect(existsSync(join(k.sibling, 'leak.txt'))).toBe(true);
  }, 600_000);
});
