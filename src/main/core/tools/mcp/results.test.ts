/**
 * An MCP result's images (docs/mcp.md "Results", docs/chat-ui.md "Images a tool returns"): each saved into the
 * workspace as a file; the ones a model can take also go to it as images. The bytes decide, never the declared type.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { makePng } from '../../../../../test/helpers/png';
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE } from '../../../../shared/chat-images';
import { makeWorkspace, type TestWorkspace } from '../_testing/workspace';
import { toOutcome } from './results';

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());

const image = (bytes: Buffer, mimeType = 'image/png') => ({ type: 'image', data: bytes.toString('base64'), mimeType });

it('the bytes decide which saved images the model sees; at most a message’s worth, each at most 5 MB; none for an error', () => {
  ws = makeWorkspace();
  const target = { workingDir: ws.root, workspaceDir: ws.root, server: 'shots', tool: 'screenshot' };
  const blocks = [
    { type: 'text', text: 'two views' },
    image(Buffer.from('not a picture at all')), // declared PNG, is text: saved, not shown
    image(makePng(2, 2), 'image/jpeg'), // declared JPEG, is PNG: shown as PNG
    image(Buffer.concat([makePng(1, 1), Buffer.alloc(MAX_IMAGE_BYTES)])), // too large to send
    ...Array.from({ length: MAX_IMAGES_PER_MESSAGE }, (_, i) => image(makePng(i + 1, 1))),
  ];
  const outcome = toOutcome({ content: blocks }, target);
  if (outcome.kind !== 'completed') throw new Error(outcome.kind);
  const lines = outcome.result.split('\n');
  expect(lines).toHaveLength(blocks.length);
  const seen = lines.filter((l) => l.endsWith(', attached for you to see]'));
  expect(seen).toHaveLength(MAX_IMAGES_PER_MESSAGE);
  expect(lines[1]).toMatch(/^\[image saved to mcp-output\/shots\/screenshot-\d+-1\.png \(image\/png\)\]$/);
  expect(lines[2]).toMatch(/attached for you to see\]$/);
  expect(lines[3]).not.toMatch(/attached/);
  expect(lines.at(-1)).not.toMatch(/attached/); // the fifth that could be seen: past a message's worth
  expect(outcome.images!.map((i) => i.mediaType)).toEqual(Array(MAX_IMAGES_PER_MESSAGE).fill('image/png'));
  expect(outcome.images![0]!.bytes).toEqual(makePng(2, 2));
  for (const line of lines.slice(1)) expect(existsSync(join(ws.root, /saved to (\S+)/.exec(line)![1]!))).toBe(true);

  const failed = toOutcome({ isError: true, content: [{ type: 'text', text: 'bad' }, image(makePng(1, 1))] }, target);
  expect(failed).toMatchObject({
    kind: 'failed',
    error: expect.stringMatching(/^bad\n\[image saved to \S+ \(image\/png\)\]$/),
  });
  expect('images' in failed).toBe(false);
});
