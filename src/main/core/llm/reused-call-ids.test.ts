/**
 * Tool results are bound to the app's own call keys (llm/messages.ts): a provider that hands out the same call id
 * in every round (a restarted local server, some gateways) still gets each result under the call it belongs to, and
 * a request whose ids would repeat is sent with unique ones (Anthropic refuses repeated tool_use ids). Real core,
 * real provider clients, the scripted model over HTTP in both wire formats; the requests as the server received them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import type { RecordedRequest } from '../../../../test/llm-server/index';
import { TN } from '../../../shared/tool-names';
import { wireIds } from './messages';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FILES = ['alpha', 'beta', 'gamma'];

/** Each sent call id with the result text sent for it, in order: OpenAI tool messages, Anthropic tool_result blocks. */
function pairs(request: RecordedRequest): { calls: string[]; results: Map<string, string> } {
  const calls: string[] = [];
  const results = new Map<string, string>();
  for (const m of request.body.messages as Record<string, unknown>[]) {
    if (request.api === 'openai') {
      for (const c of (m.tool_calls as { id: string }[] | undefined) ?? []) calls.push(c.id);
      if (m.role === 'tool') results.set(m.tool_call_id as string, String(m.content));
    } else if (Array.isArray(m.content)) {
      for (const part of m.content as Record<string, unknown>[]) {
        if (part.type === 'tool_use') calls.push(part.id as string);
        if (part.type === 'tool_result') results.set(part.tool_use_id as string, JSON.stringify(part.content));
      }
    }
  }
  return { calls, results };
}

describe.each(['openai_compatible', 'anthropic'] as const)('a provider that reuses call ids (%s)', (providerKind) => {
  it('each round’s result reaches the model under its own call, and no id repeats in a request', async () => {
    h = await startHarness({
      providerKind,
      turns: [
        // Every round names its call `reused_1`, and the second round has two calls of the same id.
        { toolCalls: [{ id: 'reused_1', name: TN.READ_FILE, arguments: { path: 'alpha.txt' } }] },
        {
          toolCalls: [
            { id: 'reused_1', name: TN.READ_FILE, arguments: { path: 'beta.txt' } },
            { id: 'reused_1', name: TN.READ_FILE, arguments: { path: 'gamma.txt' } },
          ],
        },
        { text: 'done' },
      ],
    });
    for (const name of FILES) writeFileSync(join(h.workspace, `${name}.txt`), `${name}-CONTENT\n`);
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'read them');

    const last = h.llm.requests.at(-1)!;
    const { calls, results } = pairs(last);
    expect(calls).toHaveLength(3);
    expect(new Set(calls).size).toBe(3);
    expect(calls[0]).toBe('reused_1'); // the provider's own id while it is unique in the request
    calls.forEach((id, i) => {
      expect(results.get(id), `call ${id}`).toContain(`${FILES[i]}-CONTENT`);
      for (const other of FILES.filter((_, j) => j !== i)) expect(results.get(id)).not.toContain(`${other}-CONTENT`);
    });
    // The rows keep the provider's id as it came; each row is keyed by the app.
    const history = await h.call('chat:history', { sessionId });
    const tools = history.messages.flatMap((m) => m.tools);
    expect(new Set(tools.map((t) => t.tool_call_id)).size).toBe(3);
  }, 60_000);
});

describe('wireIds', () => {
  it('keeps unique ids, gives a repeated or empty one the same shape, never one another call has', () => {
    expect(wireIds(['a1', 'b2'])).toEqual(['a1', 'b2']);
    expect(wireIds(['call_1', 'call_1', 'call_2'])).toEqual(['call_1', 'call_3', 'call_2']);
    const mistral = wireIds(['D681PevKs', 'D681PevKs']);
    expect(mistral[1]).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(mistral[1]).not.toBe(mistral[0]);
    expect(new Set(wireIds(['', '', 'x', 'x', 'x'])).size).toBe(5);
  });
});
