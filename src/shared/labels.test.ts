/** Label segments: code shown as code, no literal backticks, truncated and backticked commands kept whole. */
import { describe, expect, it } from 'vitest';
import { labelSegments, MAX_LABEL_FULL, toolLabelSegments, truncateLabel } from './labels';

describe('toolLabelSegments', () => {
  it('splits a tool label into its name and its code', () => {
    expect(toolLabelSegments('execute_cmd `git status`')).toEqual([{ code: false, text: 'execute_cmd ' }, { code: true, text: 'git status' }]);
    expect(toolLabelSegments('read_file `src/a.ts`')).toEqual([{ code: false, text: 'read_file ' }, { code: true, text: 'src/a.ts' }]);
    expect(toolLabelSegments('write_todos')).toEqual([{ code: false, text: 'write_todos' }]);
  });

  it('keeps a command with its own backticks whole', () => {
    expect(toolLabelSegments('execute_cmd `echo `date``')).toEqual([{ code: false, text: 'execute_cmd ' }, { code: true, text: 'echo `date`' }]);
  });

  it('a label truncated inside its code keeps the rest as code', () => {
    const label = truncateLabel(`execute_cmd \`${'x'.repeat(200)}\``, MAX_LABEL_FULL);
    const segments = toolLabelSegments(label);
    expect(segments[1]).toEqual({ code: true, text: `${'x'.repeat(MAX_LABEL_FULL - 14)}…` });
    expect(segments.map((s) => s.text).join('')).not.toContain('`');
  });

  it('an unpaired backtick in a label that is not cut stays text', () => {
    expect(toolLabelSegments('odd ` label')).toEqual([{ code: false, text: 'odd ` label' }]);
  });
});

describe('labelSegments', () => {
  it('finds every pair', () => {
    expect(labelSegments('`cd *` and `npm *` commands')).toEqual([
      { code: true, text: 'cd *' }, { code: false, text: ' and ' }, { code: true, text: 'npm *' }, { code: false, text: ' commands' },
    ]);
    expect(labelSegments('every tool')).toEqual([{ code: false, text: 'every tool' }]);
    expect(labelSegments('a ` b')).toEqual([{ code: false, text: 'a ` b' }]);
  });
});
