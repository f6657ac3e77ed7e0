/**
 * Commands built to be costly to judge (docs/shell-analysis.md "Bad input"), through the real gate and grammar: each
 * is decided at once and asks, and the allowed forms of the same constructs are still read part by part. Before
 * their bounds, 1,600 nested `$(` held the gate over two minutes, 24,000 brace groups in one word took the process
 * out of memory, a chain of 15,000 `cd a &&` held it for minutes, and each `cd` of a new name doubled the places
 * every later word was judged in; every command here is under the 128 KiB a
 * command line can be, so all of them reach the gate. The test's own timeout is the hang guard.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_COMMAND_PATHS } from './command-guards';
import { MAX_BRACE_GROUPS } from './shell-braces';
import { MAX_SUBSTITUTION_DEPTH } from './shell-substitutions';
import { MAX_CWDS } from './shell-walk';
import { makeKit, type Kit } from './test-kit';

let k: Kit;
beforeEach(async () => {
  k = await makeKit();
  k.file('secrets/key.txt', 'TOPSECRET');
  for (const p of ['echo *', 'ls*', 'cd *', 'cat *', 'rm *'])
    k.rules.createRule({
      tool_pattern: 'execute_cmd',
      command_pattern: p,
      action: p === 'rm *' ? 'deny' : 'allow',
      priority: 1,
    });
});
afterEach(() => k.close());

const call = (command: string) => k.call('execute_cmd', { command, workdir: k.workspace }, { category: 'shell' });
const decide = (command: string) => k.gate.check(call(command));
const analysis = (command: string) => k.gate.analyzeCommand(command, k.workspace);

describe('command substitutions inside one another', () => {
  it(`are followed ${MAX_SUBSTITUTION_DEPTH} deep: a deny there still denies`, () => {
    const nested = (depth: number, inner: string) =>
      `echo ${'$(echo '.repeat(depth - 1)}$(${inner})${')'.repeat(depth - 1)}`;
    expect(decide(nested(MAX_SUBSTITUTION_DEPTH, 'rm -rf x')).action).toBe('deny');
    expect(analysis(nested(MAX_SUBSTITUTION_DEPTH, 'ls')).unsafe).not.toContain(
      'command substitutions nested too deep to follow',
    );
  });

  it('deeper ones make the command ask, and 20,000 of them are decided at once', () => {
    const command = `echo ${'$('.repeat(20_000)}x${')'.repeat(20_000)}`;
    expect(analysis(command).unsafe).toContain('command substitutions nested too deep to follow');
    expect(decide(command).action).toBe('require');
  }, 20_000);

  it('a substitution in the body of a quoted here-document is text, in an unquoted one it runs', () => {
    expect(analysis("cat <<'EOF'\n$(rm x)\nEOF").unsafe).not.toContain('command substitution');
    expect(analysis('cat <<EOF\n$(rm x)\nEOF').unsafe).toContain('command substitution');
    expect(decide('cat <<EOF\n$(rm x)\nEOF').action).toBe('deny');
  });
});

describe('brace groups in one word', () => {
  it(`expand up to ${MAX_BRACE_GROUPS} groups; past that the word is unknown and the command asks`, () => {
    const words = analysis(`echo ${'{a,b}'.repeat(3)}`).words.at(-1)!.word;
    expect(words.isKnown && words.values.length).toBe(8);
    const many = `echo ${'{1..1}'.repeat(MAX_BRACE_GROUPS + 1)}`;
    expect(analysis(many).words.at(-1)!.word.isKnown).toBe(false);
    expect(decide(many).action).toBe('require');
  });

  it('24,000 groups (120 KB) are decided at once and ask', () => {
    expect(decide(`echo ${'{a,b}'.repeat(24_000)}`).action).toBe('require');
  }, 20_000);
});

describe('a chain of cd', () => {
  it(`is followed to ${MAX_CWDS} places (each cd of a new name doubles them): a secrets/ file after it still asks`, () => {
    k.link('notes', join(k.workspace, 'secrets'));
    const chain = (n: number) => `${Array.from({ length: n }, (_, i) => `cd d${i} ||`).join(' ')} cat key.txt`;
    const isLost = (command: string) => analysis(command).unsafe.some((u) => u.startsWith('more places a cd'));
    expect(isLost(chain(Math.log2(MAX_CWDS)))).toBe(false);
    expect(isLost(chain(Math.log2(MAX_CWDS) + 1))).toBe(true);
    // Through a symlink to secrets/, and three more cd: `key.txt` is judged in each of the 16 places.
    const d = decide(`cd notes || ${chain(3)}`);
    expect(d.action).toBe('require');
    expect(d.why).toMatchObject({ kind: 'guard', guard: 'secrets' });
  });

  it('15,000 of them are decided at once and ask', () => {
    expect(decide(`${'cd a && '.repeat(15_000)}cat f`).action).toBe('require');
  }, 20_000);
});

describe('the paths one command names', () => {
  it(`are judged one by one up to ${MAX_COMMAND_PATHS} (a name repeated counts once); past that the command asks`, () => {
    expect(decide(`cat ${'docs/a.md '.repeat(10_000)}`).action).toBe('allow');
    const many = `cat ${Array.from({ length: MAX_COMMAND_PATHS + 1 }, (_, i) => `f${i}`).join(' ')}`;
    const d = decide(many);
    expect(d.action).toBe('require');
    expect(d.why.text).toMatch(/more paths than the gate checks one by one/);
  }, 20_000);
});
