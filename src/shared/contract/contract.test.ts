import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSkaldApi, exposedKeys } from './api';
import { CHANNEL_PATTERN, splitChannel } from './define';
import { callChannels, eventFamilies } from './index';

describe('bridge contract', () => {
  it('every channel is domain:verb and unique after splitting', () => {
    for (const channel of callChannels) expect(channel).toMatch(CHANNEL_PATTERN);
    const pairs = callChannels.map((c) => splitChannel(c).join('.'));
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('the api built from the contract has exactly one function per call and one subscribe per family', () => {
    const invoked: string[] = [];
    const api = buildSkaldApi({
      invoke: async (channel) => {
        invoked.push(channel);
        return null;
      },
      subscribe: () => () => {},
    }) as unknown as Record<string, Record<string, () => Promise<unknown>>>;
    const fns = Object.entries(api)
      .filter(([k]) => k !== 'on')
      .flatMap(([domain, verbs]) => Object.keys(verbs).map((verb) => `${domain}:${verb}`));
    expect(fns.sort()).toEqual([...callChannels].sort());
    expect(Object.keys(api.on!).sort()).toEqual([...eventFamilies].sort());
    expect(Object.keys(api).sort()).toEqual(exposedKeys());
    for (const channel of callChannels) {
      const [domain, verb] = splitChannel(channel);
      void api[domain]![verb]!();
    }
    expect(invoked.sort()).toEqual([...callChannels].sort());
  });

  it('the preload exposes only the contract-built api and no generic ipc (E2, I5)', () => {
    const preload = readFileSync(join(__dirname, '../../preload/index.ts'), 'utf8');
    expect(preload).toContain('buildSkaldApi(');
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    expect(preload).not.toMatch(/sendSync|ipcRenderer\.send\(|exposeInMainWorld\([^)]*ipcRenderer/);
  });
});
