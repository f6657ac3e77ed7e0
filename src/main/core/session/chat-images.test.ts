/**
 * Images in a person's message (docs/chat-ui.md "Images in a message") against a real core: real SQLite, the real
 * provider clients talking to the scripted LLM over HTTP in both wire formats. The bytes decide what an image is;
 * a bad one refuses the whole message and writes nothing.
 */
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

const png = (w = 2, h = 2) => makePng(w, h);
const upload = (name: string, bytes: Buffer) => ({ name, data: bytes.toString('base64') });
const imageRows = () => (h.core.db.prepare('SELECT count(*) AS n FROM chat_images').get() as { n: number }).n;

describe.each(['openai_compatible', 'anthropic'] as const)('images in a message (%s wire)', (providerKind) => {
  it('stored with the message, shown in the history, sent to the model as an image after the text', async () => {
    h = await startHarness({ providerKind, turns: [{ text: 'A red square.' }] });
    const sessionId = await h.newSession();
    const bytes = png();
    await h.call('chat:send', { sessionId, content: 'What is this?', images: [upload('shot.png', bytes)] });
    await h.waitForEvent('done');
    const echo = h.events.find((e) => e.type === 'user_message')!;
    expect(echo).toMatchObject({ images: [{ name: 'shot.png', media_type: 'image/png', size: bytes.length }] });
    const [message] = (await h.call('chat:history', { sessionId })).messages;
    expect(message!.images).toEqual([
      { id: expect.any(Number), name: 'shot.png', media_type: 'image/png', size: bytes.length },
    ]);
    expect(await h.call('chat:image', { id: message!.images![0]!.id })).toEqual({
      media_type: 'image/png',
      data: bytes.toString('base64'),
    });

    const user = (h.llm.requests[0]!.body as { messages: { role: string; content: unknown }[] }).messages.find(
      (m) => m.role === 'user',
    )!;
    if (providerKind === 'anthropic') {
      expect(user.content).toEqual([
        { type: 'text', text: 'What is this?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') } },
      ]);
    } else {
      expect(user.content).toEqual([
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${bytes.toString('base64')}` } },
      ]);
    }
  });
});

describe('images in a message: what is refused, and what goes with what', () => {
  it('the bytes decide: a text file named .png, a slash command with an image: refused, nothing written', async () => {
    h = await startHarness();
    const sessionId = await h.newSession();
    await expect(
      h.call('chat:send', {
        sessionId,
        content: 'look',
        images: [upload('shot.png', Buffer.from('#!/bin/sh\nrm -rf ~\n'))],
      }),
    ).rejects.toThrow(/\[bad_request\] shot\.png is not a PNG, JPEG, GIF or WebP image/);
    await expect(
      h.call('chat:send', { sessionId, content: '/help', images: [upload('a.png', png())] }),
    ).rejects.toThrow(/\[bad_request\] A command takes no images/);
    await expect(h.call('chat:send', { sessionId, content: '' })).rejects.toThrow(/\[bad_request\]/);
    expect((await h.call('chat:history', { sessionId })).messages).toEqual([]);
    expect(imageRows()).toBe(0);
    expect(h.llm.requests).toHaveLength(0);
  });

  it('at most 4 images, 5 MB each, 10 MB in all', async () => {
    h = await startHarness();
    const sessionId = await h.newSession();
    const one = upload('a.png', png());
    await expect(h.call('chat:send', { sessionId, content: 'x', images: [one, one, one, one, one] })).rejects.toThrow(
      /\[bad_request\]/,
    );
    const big = Buffer.concat([png(), Buffer.alloc(MAX_IMAGE_BYTES)]);
    await expect(h.call('chat:send', { sessionId, content: 'x', images: [upload('big.png', big)] })).rejects.toThrow(
      /\[bad_request\]/,
    );
    const four = Buffer.concat([png(), Buffer.alloc(4 * 1024 * 1024)]);
    await expect(
      h.call('chat:send', {
        sessionId,
        content: 'x',
        images: [upload('1.png', four), upload('2.png', four), upload('3.png', four)],
      }),
    ).rejects.toThrow(/more than 10 MB/);
    expect(imageRows()).toBe(0);
  });

  it('an image alone is a message; its name titles the chat', async () => {
    h = await startHarness({ turns: [{ text: 'A red square.' }] });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: '', images: [upload('diagram.png', png())] });
    await h.waitForEvent('done');
    expect((await h.call('chat:listSessions', {})).sessions.find((s) => s.id === sessionId)!.title).toBe('diagram.png');
    const user = (h.llm.requests[0]!.body as { messages: { role: string; content: unknown }[] }).messages.find(
      (m) => m.role === 'user',
    )!;
    expect(user.content).toEqual([
      { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,/) } },
    ]);
  });

  it('a message queued behind a running turn keeps its image when the turn takes it in', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A' } }] },
        { text: 'Both seen.' },
      ],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'write a.txt' });
    const pending = await h.waitForEvent('pending_write');
    const bytes = png(3, 1);
    await h.call('chat:send', { sessionId, content: 'and look at this', images: [upload('late.png', bytes)] });
    await h.call('inbox:resolveApproval', {
      requestId: pending.request_id,
      action: 'approve',
      note: '',
      argsHash: pending.args_hash,
    });
    await h.waitForEvent('done');
    const injected = h.events.find((e) => e.type === 'user_message' && e.replaces !== undefined)!;
    expect(injected).toMatchObject({ content: 'and look at this', images: [{ name: 'late.png' }] });
    const history = (await h.call('chat:history', { sessionId })).messages;
    expect(history.find((m) => m.content === 'and look at this')!.images).toMatchObject([
      { name: 'late.png', size: bytes.length },
    ]);
    expect(JSON.stringify(h.llm.requests[1]!.body)).toContain(bytes.toString('base64'));
    expect(imageRows()).toBe(1);
  });

  it(`a request carries the newest ${MAX_CONTEXT_IMAGES} images; older ones are named in their message, their bytes never read`, async () => {
    const rounds = Math.ceil(MAX_CONTEXT_IMAGES / 4) + 1;
    h = await startHarness({ turns: Array.from({ length: rounds }, () => ({ text: 'ok' })) });
    const sessionId = await h.newSession();
    for (let i = 0; i < rounds; i++) {
      const ended = h.events.filter((e) => e.type === 'turn_running' && !e.running).length;
      await h.call('chat:send', {
        sessionId,
        content: `batch ${i}`,
        images: [1, 2, 3, 4].map((k) => upload(`b${i}-${k}.png`, png(k, i + 1))),
      });
      await expect.poll(() => h.events.filter((e) => e.type === 'turn_running' && !e.running).length).toBe(ended + 1);
    }
    const last = h.llm.requests.at(-1)!.body as {
      messages: { role: string; content: string | { type: string; text?: string }[] }[];
    };
    const users = last.messages.filter((m) => m.role === 'user');
    const images = users.flatMap((m) =>
      Array.isArray(m.content) ? m.content.filter((p) => p.type === 'image_url') : [],
    );
    expect(images).toHaveLength(MAX_CONTEXT_IMAGES);
    const first = users[0]!.content;
    expect(typeof first === 'string' ? first : first.map((p) => p.text ?? '').join('')).toBe(
      'batch 0\n\n[4 images sent here, left out of this request: b0-1.png, b0-2.png, b0-3.png, b0-4.png]',
    );
    expect(JSON.stringify(users.at(-1))).toContain(png(4, rounds).toString('base64'));
  });

  it('deleting the chat deletes its images', async () => {
    h = await startHarness({ turns: [{ text: 'ok' }] });
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'first');
    await h.call('chat:send', {
      sessionId,
      content: 'see',
      images: [upload('a.png', png()), upload('b.png', png(1, 1))],
    });
    await expect.poll(() => h.events.filter((e) => e.type === 'turn_running' && !e.running).length).toBe(2);
    expect(imageRows()).toBe(2);
    await h.call('chat:deleteSession', { sessionId });
    expect(imageRows()).toBe(0);
    await expect(h.call('chat:image', { id: 1 })).rejects.toThrow(/\[not_found\]/);
  });
});
