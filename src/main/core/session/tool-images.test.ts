/**
 * Images a tool returns (docs/chat-ui.md "Images a tool returns"): `read_file` on an image file, against a real core
 * (real SQLite, the real workspace, the provider clients talking to the scripted LLM over HTTP in both wire formats).
 * The bytes decide what an image is, the image is kept with the call's result, shown on its card, and replayed to
 * the model in each wire's own form.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { makePng } from '../../../../test/helpers/png';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { MAX_IMAGE_BYTES } from '../../../shared/chat-images';
import { MAX_CONTEXT_IMAGES } from './context';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

const imageRows = () =>
  h.core.db.prepare('SELECT name, tool_call_id FROM chat_images').all() as {
    name: string;
    tool_call_id: string | null;
  }[];
type WireMessage = { role: string; content: unknown; tool_call_id?: string };
const wireMessages = (n: number) => (h.llm.requests[n]!.body as { messages: WireMessage[] }).messages;

/** A turn in which the model reads `path` (written with `bytes` first) and then answers. */
async function readInTurn(providerKind: 'openai_compatible' | 'anthropic', path: string, bytes: Buffer) {
  h = await startHarness({
    providerKind,
    turns: [{ toolCalls: [{ name: 'read_file', arguments: { path } }] }, { text: 'A red square.' }],
  });
  mkdirSync(dirname(join(h.workspace, path)), { recursive: true });
  writeFileSync(join(h.workspace, path), bytes);
  const sessionId = await h.newSession();
  await h.sendAndSettle(sessionId, `look at ${path}`);
  const card = (await h.call('chat:history', { sessionId })).messages.flatMap((m) => m.tools)[0]!;
  return { sessionId, card };
}

describe.each(['openai_compatible', 'anthropic'] as const)('read_file on an image (%s wire)', (providerKind) => {
  it('kept with the result, on the card, and sent to the model as an image in the wire form', async () => {
    const bytes = makePng(3, 2);
    const { card } = await readInTurn(providerKind, 'shots/red.png', bytes);
    expect(card).toMatchObject({
      name: 'read_file',
      status: 'done',
      result: 'shots/red.png: PNG image, 3×2 pixels, 1 KB. The image is attached for you to see.',
    });
    expect(card.images).toEqual([
      { id: expect.any(Number), name: 'red.png', media_type: 'image/png', size: bytes.length },
    ]);
    const done = h.events.find((e) => e.type === 'tool_done')!;
    expect(done).toMatchObject({ images: card.images });
    expect(await h.call('chat:image', { id: card.images![0]!.id })).toEqual({
      media_type: 'image/png',
      data: bytes.toString('base64'),
    });
    expect(imageRows()).toEqual([{ name: 'red.png', tool_call_id: card.tool_call_id }]);

    const data = bytes.toString('base64');
    const messages = wireMessages(1);
    if (providerKind === 'anthropic') {
      const results = messages
        .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
        .filter((p: { type: string }) => p.type === 'tool_result');
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({
        content: [
          { type: 'text', text: card.result },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
        ],
      });
    } else {
      const at = messages.findIndex((m) => m.role === 'tool');
      expect(messages[at]!.content).toBe(card.result);
      expect(messages[at + 1]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: `The image returned by read_file (call ${messages[at]!.tool_call_id}):` },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } },
        ],
      });
    }
  });
});

describe('read_file on an image: the bytes decide, the limits hold', () => {
  it('a text file named .png is read as text; a PNG named .txt is an image', async () => {
    h = await startHarness({
      turns: [
        {
          toolCalls: [
            { name: 'read_file', arguments: { path: 'fake.png' } },
            { name: 'read_file', arguments: { path: 'real.txt' } },
          ],
        },
        { text: 'ok' },
      ],
    });
    writeFileSync(join(h.workspace, 'fake.png'), 'not an image\n');
    writeFileSync(join(h.workspace, 'real.txt'), makePng(1, 1));
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'read both');
    const [fake, real] = (await h.call('chat:history', { sessionId })).messages.flatMap((m) => m.tools);
    expect(fake).toMatchObject({ status: 'done', result: '1\tnot an image' });
    expect(fake!.images).toBeUndefined();
    expect(real!.result).toMatch(/^real\.txt: PNG image, 1×1 pixels/);
    expect(real!.images).toMatchObject([{ name: 'real.txt', media_type: 'image/png' }]);
  });

  it(`an image over ${MAX_IMAGE_BYTES / 1024 / 1024} MB is refused with a sentence the model can read, nothing stored`, async () => {
    h = await startHarness({
      turns: [{ toolCalls: [{ name: 'read_file', arguments: { path: 'big.png' } }] }, { text: 'ok' }],
    });
    writeFileSync(join(h.workspace, 'big.png'), Buffer.concat([makePng(1, 1), Buffer.alloc(MAX_IMAGE_BYTES)]));
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'look');
    const [card] = (await h.call('chat:history', { sessionId })).messages.flatMap((m) => m.tools);
    expect(card).toMatchObject({
      status: 'failed',
      result: 'big.png is a PNG image of 5.0 MB; read_file shows images up to 5.0 MB (what the model providers take).',
    });
    expect(imageRows()).toEqual([]);
  });

  it(`a request carries the newest ${MAX_CONTEXT_IMAGES} images, a person's and the tools' together; an older one is named in its result`, async () => {
    const count = MAX_CONTEXT_IMAGES + 1;
    h = await startHarness({
      turns: [
        {
          toolCalls: Array.from({ length: count }, (_, i) => ({ name: 'read_file', arguments: { path: `${i}.png` } })),
        },
        { text: 'ok' },
      ],
    });
    for (let i = 0; i < count; i++) writeFileSync(join(h.workspace, `${i}.png`), makePng(i + 1, 1));
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'look at them all');
    const messages = wireMessages(1);
    const shown = messages
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((p: { type: string }) => p.type === 'image_url');
    expect(shown).toHaveLength(MAX_CONTEXT_IMAGES);
    const first = messages.find((m) => m.role === 'tool')!;
    expect(first.content).toBe(
      '0.png: PNG image, 1×1 pixels, 1 KB. The image is attached for you to see.\n\n[an image returned here, left out of this request: 0.png]',
    );
  });

  it("a sub-agent's images are its own: its next request carries them, the parent's neither carries them nor counts them", async () => {
    const reads = Array.from({ length: MAX_CONTEXT_IMAGES }, (_, i) => ({
      name: 'read_file',
      arguments: { path: `c${i}.png` },
    }));
    h = await startHarness({
      turns: [
        {
          match: 'delegate',
          toolCalls: [
            {
              name: 'execute_task',
              arguments: { mode: 'sync', agent_id: 'code-explorer', prompt: 'TOKEN-CHILD look at them', title: 'look' },
            },
          ],
        },
        { match: 'TOKEN-CHILD', toolCalls: reads },
        { match: 'TOKEN-CHILD', text: 'Red squares.' },
        { match: 'delegate', text: 'The explorer saw red squares.' },
        { match: 'and then', text: 'ok' },
      ],
    });
    const childImages = reads.map((_, i) => makePng(i + 2, 3));
    childImages.forEach((bytes, i) => writeFileSync(join(h.workspace, `c${i}.png`), bytes));
    const mine = makePng(9, 9);
    const sessionId = await h.newSession();
    await h.call('chat:send', {
      sessionId,
      content: 'delegate',
      images: [{ name: 'mine.png', data: mine.toString('base64') }],
    });
    await h.waitForEvent('done');
    await expect.poll(() => h.llm.requests.length).toBe(4);
    // A later turn: the parent's rows now stand on both sides of the child's, in one range of ids.
    await h.sendAndSettle(sessionId, 'and then');
    const bodies = h.llm.requests.map((r) => JSON.stringify(r.body));
    const isChild = (body: string) => body.includes('TOKEN-CHILD') && !body.includes('"delegate');
    const childData = childImages.map((b) => b.toString('base64'));
    expect(bodies.filter(isChild).at(-1)).toContain(childData.at(-1));
    const parentLast = bodies.filter((b) => !isChild(b)).at(-1)!;
    expect(childData.filter((d) => parentLast.includes(d))).toEqual([]);
    // The child's 20 newer images took no room from the person's own (they used to be counted first, pushing it out).
    expect(parentLast).toContain(mine.toString('base64'));
  });

  it('deleting the chat deletes the images its calls returned', async () => {
    const { sessionId } = await readInTurn('openai_compatible', 'a.png', makePng(1, 1));
    expect(imageRows()).toHaveLength(1);
    await h.call('chat:deleteSession', { sessionId });
    expect(imageRows()).toEqual([]);
  });
});
