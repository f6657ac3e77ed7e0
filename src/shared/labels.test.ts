/** Label segments: code shown as code, no literal backticks, truncated and backticked commands kept whole. */
import { describe, expect, it } from 'vitest';
import { codeSpan, labelSegments, MAX_LABEL_FULL, toolLabelSegments, truncateLabel } from './labels';

const code = (text: string) => ({ code: true, text });
const plain = (text: string) => ({ code: false, text });

describe('toolLabelSegments', () => {
  it('no code part, one, two, three', () => {
    expect(toolLabelSegments('write_todos')).toEqual([plain('write_todos')]);
    expect(toolLabelSegments('execute_cmd `git status`')).toEqual([plain('execute_cmd '), code('git status')]);
    expect(toolLabelSegments('search_file `needle` in `src/long.ts`')).toEqual([
      plain('search_file '),
      code('needle'),
      plain(' in '),
      code('src/long.ts'),
    ]);
    expect(toolLabelSegments('x `a` and `b` or `c` end')).toEqual([
      plain('x '),
      code('a'),
      plain(' and '),
      code('b'),
      plain(' or '),
      code('c'),
      plain(' end'),
    ]);
    expect(toolLabelSegments('')).toEqual([]);
  });

  it('a search label cut inside its second code part keeps its first whole and the rest as code', () => {
    const label = truncateLabel(`search_file \`needle\` in \`src/${'deep/'.repeat(30)}long.ts\``, MAX_LABEL_FULL);
    expect(toolLabelSegments(label)).toEqual([
      plain('search_file '),
      code('needle'),
      plain(' in '),
      code(label.slice(label.lastIndexOf('`') + 1)),
    ]);
    expect(label.endsWith('…')).toBe(true);
  });

  it('a command with backticks of its own, written by codeSpan, stays whole', () => {
    for (const command of ['echo `date`', 'echo `a`; ls', '`pwd`', 'a ``b`` c', 'echo ` odd']) {
      expect(toolLabelSegments(`execute_cmd ${codeSpan(command)}`)).toEqual([plain('execute_cmd '), code(command)]);
    }
    expect(codeSpan('echo `date`')).toBe('`` echo `date` ``');
    expect(codeSpan('plain')).toBe('`plain`');
  });

  it('a label truncated inside its code keeps the rest as code', () => {
    const label = truncateLabel(`execute_cmd \`${'x'.repeat(200)}\``, MAX_LABEL_FULL);
    const segments = toolLabelSegments(label);
    expect(segments[1]).toEqual(code(`${'x'.repeat(MAX_LABEL_FULL - 14)}…`));
    expect(segments.map((s) => s.text).join('')).not.toContain('`');
  });

  it('an unpaired backtick in a label that is not cut stays text', () => {
    expect(toolLabelSegments('odd ` label')).toEqual([plain('odd ` label')]);
    expect(toolLabelSegments('a `b` c ` d')).toEqual([plain('a '), code('b'), plain(' c ` d')]);
    // A run of two is not closed by a run of one.
    expect(toolLabelSegments('a ``b` c')).toEqual([plain('a ``b` c')]);
  });
});

describe('labelSegments', () => {
  it('finds every pair', () => {
    expect(labelSegments('`cd *` and `npm *` commands')).toEqual([
      { code: true, text: 'cd *' },
      { code: false, text: ' and ' },
      { code: true, text: 'npm *' },
      { code: false, text: ' commands' },
    ]);
    expect(labelSegments('every tool')).toEqual([{ code: false, text: 'every tool' }]);
    expect(labelSegments('a ` b')).toEqual([{ code: false, text: 'a ` b' }]);
  });
});
