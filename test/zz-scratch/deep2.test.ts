import { afterEach, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/core-harness';
import { cleanupTempDirs } from '../helpers/temp';
let h: Harness;
afterEach(async () => { await h?.close(); cleanupTempDirs(); });
const arr = (n: number) => '['.repeat(n) + ']'.repeat(n);
for (const n of [3000, 6000])
for (const [label, args] of [['read x', `{"path":"a.txt","x":${arr(n)}}`], ['write content', `{"path":"a.txt","content":${arr(n)}}`], ['todo', `{"todos":${arr(n)}}`]] as const) {
  it(label + n, async () => {
    h = await startHarness({ turns: [{ toolCalls: [{ name: label === 'todo' ? 'write_todos' : label.startsWith('read') ? 'read_file' : 'write_file', arguments: args }] }, { text: 'done' }, { text: 'again' }] });
    const s = await h.newSession();
    const ev = await h.sendAndSettle(s, 'go');
    const ev2 = await h.sendAndSettle(s, 'again'); console.log(label, n, ev.map((e) => e.type).join(','), '|', ev2.map((e) => e.type).join(','));
    console.log(JSON.stringify(ev.filter((e) => /tool_(done|error|rejected)|error/.test(e.type))).slice(0, 300));
  }, 60_000);
}
