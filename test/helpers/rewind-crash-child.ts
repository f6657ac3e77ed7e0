/**
 * Rewind crash-test child (docs/rewind.md "Crash and resume"): opens the data folder the parent built
 * (test/helpers/rewind-world.ts), previews the rewind to before the session's second message and applies it
 * (files and chat). With a step number it SIGKILLs itself at that step (-2 before the journal's commit, -1 after it,
 * n after file n, the file count after the end's commit); without one (`timed`) it prints `applying` and the parent
 * kills it whenever it likes. The parent finishes the run itself, in a fresh open of the data folder.
 */
import { writeSync } from 'node:fs';
import { openWorld, serviceOf } from './rewind-world';

const [dataDir, sessionArg, messageArg, what] = process.argv.slice(2) as [string, string, string, string];
const killAt = what === 'timed' ? null : Number(what);
const world = openWorld(dataDir, {
  afterStep: (seq) => {
    if (seq === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
const rewind = serviceOf(world);
const sessionId = Number(sessionArg);
const messageId = Number(messageArg);
const preview = rewind.preview(sessionId, messageId);
const seen = preview.files.map((f) => ({ path: f.path, hash: f.currentHash }));
writeSync(1, 'applying\n');
rewind.apply({ sessionId, messageId, mode: 'files_and_chat', seen });
world.db.close();
writeSync(1, 'finished\n');
