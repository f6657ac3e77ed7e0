/**
 * Worker-thread entry of the chat search (chat-search.ts; docs/ui.md "Searching chats"). It opens its own read-only
 * connection to the app's database (WAL lets a reader in another thread read while the core writes) and scans there,
 * so a search over a 50,000-message chat never blocks the core's thread. Built as its own entry
 * (`out/main/chat-search-worker.js`, electron.vite.config.ts).
 */
import Database from 'better-sqlite3';
import { parentPort } from 'node:worker_threads';
import type { ChatSearchJob, ChatSearchReply } from './chat-search';
import { searchChats } from './chat-search-scan';

const port = parentPort;
if (!port) throw new Error('chat-search-worker.ts runs only as a worker thread');

/** SQLite's default page cache, as the core's connection has (PAGE_CACHE_KIB in db/database.ts), not better-sqlite3's 16 MB. */
const CACHE_KIB = 2000;

let db: Database.Database | null = null;

port.on('message', (job: ChatSearchJob | { close: true }) => {
  if ('close' in job) {
    db?.close();
    port.close(); // nothing else holds the thread: it ends
    return;
  }
  try {
    if (!db) {
      db = new Database(job.file, {
        readonly: true,
        fileMustExist: true,
        ...(job.nativeBinding ? { nativeBinding: job.nativeBinding } : {}),
      });
      db.pragma('busy_timeout = 5000');
      db.pragma(`cache_size = -${CACHE_KIB}`);
    }
    const latest = new Int32Array(job.latest);
    const hits = searchChats(db, job.query, () => Atomics.load(latest, 0) !== job.id);
    port.postMessage({ id: job.id, ok: true, hits } satisfies ChatSearchReply);
  } catch (error) {
    port.postMessage({
      id: job.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    } satisfies ChatSearchReply);
  }
});
