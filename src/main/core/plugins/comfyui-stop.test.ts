/**
 * The person's `/stop` reaches the ComfyUI server (docs/plugins.md "Image generation", Stop): through the whole app —
 * the plugin set up over the bridge, the model's `image_generate` call allowed by its seeded rule, `chat:stop` while
 * the job is still running — the tool's cancellation POSTs `/interrupt` and removes our queued prompt, the card ends
 * cancelled, and nothing is saved. Real core, real SQLite, the scripted LLM and a scripted ComfyUI server over HTTP.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startComfyUiServer, type ComfyUiServer } from '../../../../test/image-servers/index';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

let h: Harness | undefined;
let comfy: ComfyUiServer | undefined;
afterEach(async () => {
  await h?.close();
  await comfy?.close();
  h = undefined;
  comfy = undefined;
  cleanupTempDirs();
});

it('/stop during a ComfyUI generation interrupts the server and removes the queued prompt', async () => {
  comfy = await startComfyUiServer();
  comfy.finishAfterPolls = Infinity;
  h = await startHarness({
    turns: [{ toolCalls: [{ name: 'image_generate', arguments: { prompt: 'a slow painting' } }] }, { text: 'unused' }],
  });
  const workflow = JSON.stringify({
    '6': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}' } },
    '9': { class_type: 'SaveImage', inputs: {} },
  });
  await h.call('plugins:configure', {
    name: 'comfyui',
    config: { base_url: comfy.url, workflow, poll_interval_ms: 50 },
  });
  await h.call('plugins:setEnabled', { name: 'comfyui', enabled: true });

  const session = await h.newSession();
  await h.call('chat:send', { sessionId: session, content: 'paint it' });
  await expect.poll(() => comfy!.requests.some((r) => r.path.startsWith('/history/')), { timeout: 20_000 }).toBe(true);
  expect(comfy.interrupts).toBe(0);
  await h.call('chat:stop', { sessionId: session });

  await expect.poll(() => comfy!.interrupts, { timeout: 20_000 }).toBe(1);
  expect(comfy.queueDeletes).toEqual(['job-1']);
  await h.waitForEvent('tool_cancelled');
  expect(existsSync(join(h.workspace, 'images'))).toBe(false);
});
