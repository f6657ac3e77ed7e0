/**
 * A chat as Markdown (docs/chat-ui.md "Exporting a chat"): who said what, tool calls with their outcome and result,
 * fences that a result full of backticks cannot close, long results cut, and a file name that is never a path.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryMessage, ToolCard } from '../../src/shared/contract/chat';
import { chatToMarkdown, exportFileName, RESULT_CHARS } from '../../src/renderer/src/lib/chat-export';
import { fenced } from '../../src/shared/fenced';

const message = (
  id: number,
  role: HistoryMessage['role'],
  content: string,
  tools: Partial<ToolCard>[] = [],
): HistoryMessage => ({
  id,
  role,
  content,
  status: 'ok',
  queued: false,
  reasoning: null,
  input_tokens: null,
  output_tokens: null,
  cost: null,
  model: role === 'assistant' ? 'gpt-x' : null,
  created_at: 0,
  tools: tools.map((t, i) => ({
    tool_call_id: `tc${id}-${i}`,
    message_id: id,
    name: 'read_file',
    arguments: '{}',
    status: 'done',
    result: null,
    result_type: 'string',
    label_short: 'read_file notes.md',
    label_full: 'read_file notes.md',
    path: null,
    decision: null,
    interrupted: false,
    pending: null,
    ...t,
  })),
});

describe('chatToMarkdown', () => {
  it('titles the chat, heads each message with who said it, and shows each call with its outcome and result', () => {
    const md = chatToMarkdown(
      'Plan the release',
      [
        message(1, 'user', 'What is in notes.md?'),
        message(2, 'assistant', '', [
          { result: 'line one\nline two' },
          { name: 'execute_cmd', label_short: 'execute_cmd `ls`', status: 'rejected', result: 'The person said no.' },
        ]),
        message(3, 'assistant', 'It has **two** lines.'),
      ],
      new Date('2026-12-06T12:00:00Z'),
    );
    expect(md).toBe(
      [
        '# Plan the release',
        '_Exported from Skald on 2026-12-06 12:00 UTC; 3 messages._',
        '## You\n\nWhat is in notes.md?',
        '## Assistant (gpt-x)\n\n**Tool** `read_file` · read_file notes.md · done\n\n```\nline one\nline two\n```\n\n**Tool** `execute_cmd` · execute_cmd `ls` · rejected\n\n```\nThe person said no.\n```',
        '## Assistant (gpt-x)\n\nIt has **two** lines.',
      ].join('\n\n') + '\n',
    );
  });

  it("names a message's images (not embedded), with Markdown in a name shown as text", () => {
    const withImages: HistoryMessage = {
      ...message(1, 'user', 'Why is this red?'),
      images: [
        { id: 1, name: 'shot_1.png', media_type: 'image/png', size: 10 },
        { id: 2, name: '*b*.jpg', media_type: 'image/jpeg', size: 9 },
      ],
    };
    expect(chatToMarkdown('T', [withImages], new Date(0))).toContain(
      '## You\n\n*Images: shot\\_1.png, \\*b\\*.jpg*\n\nWhy is this red?',
    );
  });

  it('a result with backtick fences inside gets a longer fence; a long result is cut and says by how much', () => {
    expect(fenced('a ``` b ````` c')).toBe('``````\na ``` b ````` c\n``````');
    // Many runs (a file of template literals): one pass, no call stack spent on them.
    expect(fenced('`x` '.repeat(300_000)).startsWith('```\n`x`')).toBe(true);
    const md = chatToMarkdown(
      't',
      [message(1, 'assistant', '', [{ result: 'x'.repeat(RESULT_CHARS + 10) }])],
      new Date(0),
    );
    expect(md).toContain(`… (10 more characters)`);
    expect(md).not.toContain('x'.repeat(RESULT_CHARS + 1));
  });
});

describe('exportFileName', () => {
  it('keeps letters, digits and dashes; never a path or an empty name', () => {
    expect(exportFileName('Plan the release: v2.0!', 3)).toBe('Plan-the-release-v20.md');
    expect(exportFileName('../../etc/passwd', 3)).toBe('etcpasswd.md');
    expect(exportFileName('///', 7)).toBe('chat-7.md');
    expect(exportFileName('Café déjà vu', 1)).toBe('Cafe-deja-vu.md');
  });
});
