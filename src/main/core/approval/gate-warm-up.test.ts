/**
 * The shell gate's warm-up (gate-warm-up.ts, docs/shell-analysis.md "Cold start"): it decides its commands through
 * the real gate and keeps nothing (no decision row, no event, no Inbox entry), and a stop ends it before its next
 * decision. The part `core.start()` runs at once decides a plain line without starting the grammar's load.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { PLAIN_AT_START, warmUpPlainShellGate, warmUpShellGate } from './gate-warm-up';
import { makeKit, type Kit } from './test-kit';

let k: Kit | undefined;
afterEach(() => {
  k?.close();
  k = undefined;
  vi.restoreAllMocks();
  cleanupTempDirs();
});

const count = (kit: Kit, table: string) =>
  (kit.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('the shell gate warm-up', () => {
  it('decides each of its commands through the gate and records nothing', async () => {
    k = await makeKit();
    const decisions: string[] = [];
    const check = k.gate.check.bind(k.gate);
    vi.spyOn(k.gate, 'check').mockImplementation((call) => {
      const decision = check(call);
      decisions.push(decision.why.kind);
      return decision;
    });
    await warmUpShellGate(k.gate, k.workspace, new AbortController().signal);
    expect(decisions.length).toBeGreaterThan(10);
    expect(decisions).not.toContain('load_error'); // every command really went through the rules
    expect([count(k, 'tool_decisions'), count(k, 'approval_requests')]).toEqual([0, 0]);
    expect([k.sessionEvents.length, k.inboxEvents.length]).toEqual([0, 0]);
  });

  it('stops before its next decision once its signal is aborted', async () => {
    k = await makeKit();
    const check = vi.spyOn(k.gate, 'check');
    const stop = new AbortController();
    const running = warmUpShellGate(k.gate, k.workspace, stop.signal);
    stop.abort();
    await running;
    expect(check).not.toHaveBeenCalled();
  });

  it('at start: decides its plain line at once through the rules, records nothing and leaves the grammar unloaded', async () => {
    k = await makeKit({ shellGrammar: 'background' });
    const loads = vi.spyOn(k.shell, 'whenLoaded');
    const check = vi.spyOn(k.gate, 'check');
    warmUpPlainShellGate(k.gate, k.workspace);
    expect(check).toHaveBeenCalledTimes(1);
    expect(check.mock.calls[0]![0].args.command).toBe(PLAIN_AT_START);
    expect(check.mock.results[0]!.value).toMatchObject({ why: { kind: expect.not.stringMatching(/^load_error$/) } });
    expect(k.shell.analyzePlain(PLAIN_AT_START, k.workspace, () => true)).not.toBeNull(); // read without the grammar
    expect(loads).not.toHaveBeenCalled();
    expect(k.shell.needsGrammar('ls "a b"')).toBe(true);
    expect([count(k, 'tool_decisions'), count(k, 'approval_requests')]).toEqual([0, 0]);
    expect([k.sessionEvents.length, k.inboxEvents.length]).toEqual([0, 0]);
  });
});
