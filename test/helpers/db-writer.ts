/**
 * Crash-harness child (D2): opens the store through our own `openDatabase`, commits rows in a loop and prints
 * `ack <n>` only after each commit returned. The parent SIGKILLs it at a random moment.
 * Each commit writes a row to two tables in one transaction, so the parent can also check atomicity (D3).
 * Check ids (D2, D3) are listed in docs/security-checks.md.
 */
import { openDatabase } from '../../src/main/core/db/database';

const file = process.argv[2]!;
const db = openDatabase({ file });
db.exec(
  'CREATE TABLE IF NOT EXISTS kill_a (n INTEGER PRIMARY KEY, payload TEXT); CREATE TABLE IF NOT EXISTS kill_b (n INTEGER PRIMARY KEY)',
);
const last = (db.prepare('SELECT max(n) AS n FROM kill_a').get() as { n: number | null }).n ?? 0;
const insertA = db.prepare('INSERT INTO kill_a (n, payload) VALUES (?, ?)');
const insertB = db.prepare('INSERT INTO kill_b (n) VALUES (?)');
const commit = db.transaction((n: number) => {
  insertA.run(n, 'x'.repeat(2_000));
  insertB.run(n);
});
process.stdout.write('ready\n');
for (let n = last + 1; ; n++) {
  commit(n);
  process.stdout.write(`ack ${n}\n`);
}
