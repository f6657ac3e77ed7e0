/**
 * The card's sandbox choices through the real core and real bubblewrap (docs/approval.md "The sandbox on the card"):
 * the card says where the command runs; "with network" and "outside the sandbox" hold for that call alone, never
 * start a bypass, and a bypass granted later never lifts the sandbox; the decision log says how each command ran.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxApproval } from '../../../shared/contract/inbox';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

let h: Harness | undefined;
let server: Server | undefined;
afterEach(async () => {
  await h?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  h = undefined;
  server = undefined;
  cleanupTempDirs();
});

async function localServer(): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  server = createServer((_req, res) => {
    hits++;
    res.end('reached');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, hits: () => hits };
}

const fetchCommand = (port: number) =>
  `node -e "fetch('http://127.0.0.1:${port}/').then(r => r.text()).then(console.log, e => { console.log(String(e.cause ?? e)); process.exit(1) })"`;

/** Answers each card in turn with the next answer: a function of the card that resolves it. */
function answerCards(
  harness: Harness,
  answers: ((card: InboxApproval) => Promise<unknown>)[],
): {
  cards: InboxApproval[];
  errors: string[];
  stop: () => void;
} {
  const cards: InboxApproval[] = [];
  const errors: string[] = [];
  const stop = harness.core.events.subscribe('chat', (e) => {
    if (e.type !== 'approval_required' && e.type !== 'pending_write') return;
    void (async () => {
      const { approvals } = await harness.call('inbox:list', {});
      const card = approvals.find((a) => a.request_id === e.request_id)!;
      cards.push(card);
      const answer = answers.shift();
      if (!answer) throw new Error(`no answer left for ${card.arguments}`);
      await answer(card).catch((error: Error) => errors.push(error.message));
    })();
  });
  return { cards, errors, stop };
}

describe('the sandbox on the approval card', () => {
  it('network and outside the sandbox hold for one call; a bypass never lifts the sandbox; the log says how each ran', async () => {
    const { port, hits } = await localServer();
    const fetch = fetchCommand(port);
    h = await startHarness({
      turns: [
        {
          toolCalls: [
            { name: 'execute_cmd', arguments: { command: fetch } }, // approved with network
            { name: 'execute_cmd', arguments: { command: fetch } }, // asks again; approved with a bypass
            { name: 'execute_cmd', arguments: { command: fetch } }, // the bypass: in the sandbox, no network
            { name: 'execute_cmd', arguments: { command: 'echo out > ../outside/x.txt' } }, // outside the sandbox
            { name: 'execute_cmd', arguments: { command: 'echo out > ../outside/y.txt' } }, // approved once: sandboxed
          ],
        },
        { text: 'done' },
      ],
    });
    const outside = join(h.workspace, '..', 'outside');
    mkdirSync(outside);
    expect((await h.call('sandbox:status', {})).state).toBe('ready');
    const sessionId = await h.newSession();
    const harness = h;
    const approve = (card: InboxApproval, more: Record<string, unknown> = {}) =>
      harness.call('inbox:resolveApproval', {
        requestId: card.request_id,
        action: 'approve',
        note: '',
        argsHash: card.args_hash,
        ...more,
      });
    const answers = answerCards(h, [
      (card) => approve(card, { sandbox: 'network' }),
      async (card) => {
        // "with network" never starts a bypass: refused, nothing decided, the card still waits.
        await approve(card, { sandbox: 'network', bypassSecs: 0, bypassScope: 'command' }).catch((e: Error) =>
          answers.errors.push(e.message),
        );
        await approve(card, { sandbox: 'unconfined', bypassSecs: 0, bypassScope: 'command' }).catch((e: Error) =>
          answers.errors.push(e.message),
        );
        return approve(card, { bypassSecs: 0, bypassScope: 'command' });
      },
      (card) => approve(card, { sandbox: 'unconfined' }),
      (card) => approve(card),
    ]);
    try {
      await h.sendAndSettle(sessionId, 'go');
    } finally {
      answers.stop();
    }
    // Four cards: the third fetch ran under the bypass without asking.
    expect(answers.cards).toHaveLength(4);
    for (const card of answers.cards) {
      expect(card.sandbox?.state).toBe('sandboxed');
      expect(card.sandbox?.text).toMatch(/^runs in the sandbox: writes inside \/.*ws, no network$/);
    }
    expect(answers.errors).toEqual([
      expect.stringContaining('Approving with network is for this call only; it cannot start a bypass.'),
      expect.stringContaining('Approving outside the sandbox is for this call only; it cannot start a bypass.'),
    ]);
    const results = h.events.flatMap((e) =>
      e.type === 'tool_done' ? [e.result] : e.type === 'tool_error' ? [e.error] : [],
    );
    expect(results).toHaveLength(5);
    const [withNetwork, bypassed, underBypass, unconfined, once] = results;
    expect(withNetwork).toContain('reached');
    for (const net of [bypassed, underBypass]) {
      expect(net).not.toContain('reached');
      expect(net).toContain('[the sandbox kept this command from using the network');
    }
    expect(hits()).toBe(1);
    expect(unconfined).toContain('[exit code 0]');
    expect(readFileSync(join(outside, 'x.txt'), 'utf8')).toBe('out\n');
    expect(once).toContain('[the sandbox gives commands their own empty /tmp:');
    expect(existsSync(join(outside, 'y.txt'))).toBe(false);

    // The log: how each command ran, oldest first.
    const { decisions } = await h.call('approval:listDecisions', { action: 'allow' });
    const ran = decisions
      .filter((d) => d.tool_name === 'execute_cmd')
      .reverse()
      .map((d) => [d.reason_kind, d.sandbox]);
    expect(ran).toEqual([
      ['human', { mode: 'sandboxed', network: true }],
      ['human', { mode: 'sandboxed', network: false }],
      ['bypass', { mode: 'sandboxed', network: false }],
      ['human', { mode: 'unconfined' }],
      ['human', { mode: 'sandboxed', network: false }],
    ]);
    // Asking decisions ran nothing: no sandbox in the log.
    const { decisions: asked } = await h.call('approval:listDecisions', { action: 'require' });
    expect(asked.every((d) => d.sandbox === null)).toBe(true);
  }, 120_000);

  it('a call that runs no command has no sandbox line, and cannot be approved with network', async () => {
    h = await startHarness({
      turns: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }] }, { text: 'done' }],
    });
    const sessionId = await h.newSession();
    const harness = h;
    const answers = answerCards(h, [
      async (card) => {
        await harness
          .call('inbox:resolveApproval', {
            requestId: card.request_id,
            action: 'approve',
            argsHash: card.args_hash,
            sandbox: 'network',
          })
          .catch((e: Error) => answers.errors.push(e.message));
        return harness.call('inbox:resolveApproval', {
          requestId: card.request_id,
          action: 'approve',
          argsHash: card.args_hash,
        });
      },
    ]);
    try {
      await h.sendAndSettle(sessionId, 'go');
    } finally {
      answers.stop();
    }
    expect(answers.cards.map((c) => c.sandbox)).toEqual([null]);
    expect(answers.errors).toEqual([
      expect.stringContaining('write_file runs no command: it cannot be approved with network.'),
    ]);
  }, 60_000);

  it('a rule grants network to the commands it allows, stored with the rule; a part it does not grant runs without', async () => {
    const { port, hits } = await localServer();
    const fetch = fetchCommand(port);
    h = await startHarness({
      turns: [
        {
          toolCalls: [
            { name: 'execute_cmd', arguments: { command: fetch } },
            { name: 'execute_cmd', arguments: { command: `echo hi && ${fetch}` } },
          ],
        },
        { text: 'done' },
      ],
    });
    // Only an allow rule with a command pattern of execute_cmd can grant it.
    const check = (fields: Record<string, unknown>) =>
      h!.call('approval:checkRule', { tool_pattern: 'execute_cmd', action: 'allow', network: true, ...fields });
    expect((await check({ action: 'deny', command_pattern: 'node *' })).problem).toMatchObject({
      field: 'network',
      message: 'Only an allow rule can grant network to the commands it allows.',
    });
    expect((await check({})).problem?.field).toBe('network');
    expect((await check({ tool_pattern: 'read_file', command_pattern: null })).problem?.field).toBe('network');
    expect((await check({ command_pattern: 'node *' })).problem).toBeNull();

    const { rule } = await h.call('approval:createRule', {
      tool_pattern: 'execute_cmd',
      command_pattern: 'node *',
      action: 'allow',
      network: true,
    });
    await h.call('approval:createRule', { tool_pattern: 'execute_cmd', command_pattern: 'echo *', action: 'allow' });
    expect(rule.network).toBe(true);
    const { rules } = await h.call('approval:listRules', {});
    expect(rules.find((r) => r.id === rule.id)).toMatchObject({ network: true, command_pattern: 'node *' });
    expect(rules.filter((r) => r.id !== rule.id).every((r) => r.network === false)).toBe(true);
    // Editable: off and on again.
    expect((await h.call('approval:updateRule', { id: rule.id, network: false })).rule.network).toBe(false);
    expect((await h.call('approval:updateRule', { id: rule.id, network: true })).rule.network).toBe(true);
    expect((await h.call('approval:updateRule', { id: rule.id, note: 'npm' })).rule.network).toBe(true);

    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'go');
    const results = h.events.flatMap((e) => (e.type === 'tool_done' ? [e.result] : []));
    expect(results).toHaveLength(2);
    expect(results[0]).toContain('reached');
    expect(results[1]).toContain('[the sandbox kept this command from using the network');
    expect(hits()).toBe(1);
    const decisions = h.events.flatMap((e) => (e.type === 'tool_decision' ? [e.decision] : []));
    expect(decisions.map((d) => [d.why.kind, d.sandbox ?? null])).toEqual([
      ['rule', { mode: 'sandboxed', network: true }],
      ['rule', null],
    ]);
    expect(decisions[0]!.why.text).toBe(`Allowed by rule ${rule.id}: Allow execute_cmd $ node * with network`);
  }, 60_000);
});
