/**
 * MCP prompts and resources (docs/mcp.md "Prompts and resources") through the real core's boundary and a real server-everything over stdio: the
 * connected servers' prompts are listed, one is filled in as text for the message box, and a missing argument or an
 * unknown prompt is said in a sentence. Nothing reaches the model or the history: the person sends the text, or not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { makePng } from '../../../../test/helpers/png';
import { MAX_PROMPT_TEXT_CHARS, promptText, resourceInsert } from './prompts';
import { EVERYTHING, node } from './test-kit';
import { endHarnessTest } from '../../../../test/helpers/mcp-harness';

let h: Harness | null = null;
let marker = '';
afterEach(async () => {
  await endHarnessTest(h, marker);
  h = null;
});

describe('MCP prompts', () => {
  it('lists the connected servers’ prompts and fills one in as text; nothing is sent or written', async () => {
    marker = `skald-mcp-prompts-${Math.random().toString(36).slice(2)}`;
    h = await startHarness();
    expect(await h.call('mcp:prompts', {})).toEqual({ prompts: [] }); // no server yet: nothing, and nothing started
    await h.call('mcp:save', {
      name: 'everything',
      transport: 'stdio',
      command: node,
      args: [EVERYTHING, 'stdio', marker],
    });
    await h.core.mcp.manager.open('everything');
    const { prompts } = await h.call('mcp:prompts', {});
    expect(prompts.map((p) => p.name)).toEqual(
      expect.arrayContaining(['simple-prompt', 'args-prompt', 'resource-prompt']),
    );
    expect(prompts.find((p) => p.name === 'args-prompt')).toEqual({
      server: 'everything',
      name: 'args-prompt',
      title: 'Arguments Prompt',
      description: 'A prompt with two arguments, one required and one optional',
      arguments: [
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', description: '', required: false },
      ],
    });
    await expect(
      h.call('mcp:getPrompt', { server: 'everything', name: 'args-prompt', arguments: { state: 'CA' } }),
    ).rejects.toThrow('[bad_request] The prompt Arguments Prompt needs city.');
    const filled = await h.call('mcp:getPrompt', {
      server: 'everything',
      name: 'args-prompt',
      arguments: { city: 'Oakland', state: 'CA' },
    });
    expect(filled.text).toContain('Oakland');
    const withResource = await h.call('mcp:getPrompt', {
      server: 'everything',
      name: 'resource-prompt',
      arguments: { resourceType: 'Text', resourceId: '1' },
    });
    expect(withResource.text).toMatch(/```\n[\s\S]+\n```/);
    await expect(h.call('mcp:getPrompt', { server: 'everything', name: 'no-such', arguments: {} })).rejects.toThrow(
      '[not_found] The MCP server "everything" offers no prompt named no-such now.',
    );
    await expect(h.call('mcp:getPrompt', { server: 'nobody', name: 'x', arguments: {} })).rejects.toThrow(
      '[not_found]',
    );
    expect(h.llm.requests).toHaveLength(0);
    expect((h.core.db.prepare('SELECT count(*) AS n FROM chat_history').get() as { n: number }).n).toBe(0);
  });

  it('lists the connected servers’ resources and reads one as text under its URI; a binary one is refused with a sentence', async () => {
    marker = `skald-mcp-resources-${Math.random().toString(36).slice(2)}`;
    h = await startHarness();
    expect(await h.call('mcp:resources', {})).toEqual({ resources: [] });
    await h.call('mcp:save', {
      name: 'everything',
      transport: 'stdio',
      command: node,
      args: [EVERYTHING, 'stdio', marker],
    });
    await h.core.mcp.manager.open('everything');
    const { resources } = await h.call('mcp:resources', {});
    const doc = resources.find((r) => r.uri === 'demo://resource/static/document/architecture.md')!;
    expect(doc).toEqual({
      server: 'everything',
      uri: doc.uri,
      name: 'architecture.md',
      description: expect.any(String),
      mimeType: 'text/markdown',
    });
    const read = await h.call('mcp:readResource', { server: 'everything', uri: doc.uri });
    expect(read).toMatchObject({
      image: null,
      text: expect.stringMatching(/^demo:\/\/resource\/static\/document\/architecture\.md:\n```+\n# Everything Server/),
    });
    expect(h.llm.requests).toHaveLength(0);
  });

  it('a resource’s contents as what goes into the box: text fenced, an image by its bytes, anything else refused', () => {
    const png = makePng(2, 2);
    expect(resourceInsert('x://a', [{ uri: 'x://a', text: 'hello' }])).toEqual({
      text: 'x://a:\n```\nhello\n```',
      image: null,
    });
    expect(
      resourceInsert('x://shot.png', [{ uri: 'x://shot.png', mimeType: 'image/jpeg', blob: png.toString('base64') }]),
    ).toEqual({ text: null, image: { name: 'shot.png', media_type: 'image/png', data: png.toString('base64') } });
    expect(() =>
      resourceInsert('x://b.bin', [
        { uri: 'x://b.bin', mimeType: 'application/zip', blob: Buffer.from('PK\u0003\u0004').toString('base64') },
      ]),
    ).toThrow(
      'x://b.bin is binary (application/zip), not text or a PNG, JPEG, GIF or WebP image; it cannot go into a message.',
    );
    expect(() => resourceInsert('x://big', [{ uri: 'x://big', text: 'y'.repeat(MAX_PROMPT_TEXT_CHARS + 1) }])).toThrow(
      /has more text than one message holds/,
    );
  });

  it('a prompt’s messages as text: the assistant’s part marked, an embedded text fenced under its URI, media named', () => {
    expect(
      promptText([
        { role: 'user', content: { type: 'text', text: 'Review this:' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'file:///a.ts', text: 'const a = 1;' } } },
        { role: 'assistant', content: { type: 'text', text: 'Sure.' } },
        { role: 'user', content: { type: 'image', mimeType: 'image/png' } },
      ]),
    ).toBe(
      "Review this:\n\nfile:///a.ts:\n```\nconst a = 1;\n```\n\n(The assistant's part of the prompt:)\nSure.\n\n[image (image/png) from the prompt: not inserted]",
    );
  });
});
