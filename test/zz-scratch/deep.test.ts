import { afterEach, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/core-harness';
import { cleanupTempDirs } from '../helpers/temp';
let h: Harness;
afterEach(async () => { await h?.close(); cleanupTempDirs(); });
const deep = (n: number) => '{"path":"a.txt","x":' + '['.repeat(n) + ']'.repeat(n) + '}';
for (const kind of ['openai_compatible', ] as const)
for (const [label, args] of [['arrays 100k', deep(100_000)], ] as const) {
  it(kind + label, async () => {
    h = await startHarness({ providerKind: kind, turns: [{ toolCalls: [{ name: 'read_file', arguments: args }] }, { text: 'done' }, { text: 'again' }] });
    const s = await h.newSession();
    const t0 = performance.now();
    const ev = await h.sendAndSettle(s, 'go');
    const ev2 = await h.sendAndSettle(s, 'more');
    console.log(kind, label, (performance.now() - t0).toFixed(0), 'ms', ev.map((e) => e.type).join(','), '|', ev2.map((e) => e.type).join(','));
    console.log(JSON.stringify(ev.filter((e) => /tool_(done|error|rejected)|error/.test(e.type))).slice(0, 400));
    const hist = await h.call('chat:history' as never, { sessionId: s } as never).catch((e) => String(e));
    console.log(JSON.stringify(hist).length);
  }, 60_000);
}
