/**
 * Rewind (docs/rewind.md): take a chat back to before one of the person's messages, with every file the agent's
 * calls changed since as it was.
 * - `preview` says what would happen (plan.ts); `diff` gives one file's three versions.
 * - `apply` is the person's own act: their click is the approval, written to the decision log as one entry with the
 *   file list, in the same commit as the journal (journal.ts) and before any file changes. A file that moved on
 *   after the preview refuses the whole apply (nothing written); a conflict needs the person's choice.
 * - The files are restored one atomic write (or unlink) each (restore.ts); then one commit ends the run, forks the
 *   chat (the later rows stay, marked replaced, as an earlier branch) and adds the note the model reads in its next
 *   request. A crash between the two commits leaves a run that `resume` finishes from the journal.
 */
import { dirname } from 'node:path';
import type { ChatEventBody } from '../../../shared/contract/chat';
import { BridgeError } from '../../../shared/contract/define';
import type {
  RewindMode,
  RewindOutcome,
  RewindPreview,
  RewindResult,
  RewindRun,
  StoreUsage,
} from '../../../shared/contract/rewind';
import type { FileImage } from '../../../shared/contract/viewer';
import { argsHash, recordDecision } from '../approval/decisions';
import { decodeText } from '../disk/text-bytes';
import type { EventBus } from '../events';
import type { NewMessage } from '../db/session-rows';
import { syncFolder } from '../disk/write';
import { kindOfPath } from '../viewer/file-kinds';
import { RewindJournal, type Step } from './journal';
import { buildPlan, readNow, type Content, type FilePlan, type RewindPorts } from './plan';
import { runStep, stepState } from './restore';
import { rewindNote } from './note';

/**
 * What a rewind writes of the chat, through the sessions' one writer (session/session-store.ts; core/index.ts passes
 * it): the end of a run, the rows it replaces and its note, in one transaction. Declared here so rewind does not
 * import the session.
 */
export interface RewindChatRows {
  transaction<T>(work: () => T): T;
  markReplaced(sessionId: number, fromId: number): void;
  appendMessage(m: NewMessage): number;
}

export interface RewindServiceDeps extends RewindPorts {
  store: RewindChatRows;
  events?: EventBus;
  /**
   * Crash tests: called at each step of a run: -2 before the journal's commit, -1 after it, n after file n, and the
   * number of files after the commit that ends the run.
   */
  afterStep?: (seq: number) => void;
}

const withFiles = (mode: RewindMode) => mode !== 'chat';
const withChat = (mode: RewindMode) => mode !== 'files';

export class RewindService {
  private readonly journal: RewindJournal;
  private readonly busy = new Set<number>();

  constructor(private readonly deps: RewindServiceDeps) {
    this.journal = new RewindJournal(deps.db);
  }

  preview(sessionId: number, messageId: number): RewindPreview {
    const plan = buildPlan(this.deps, sessionId, messageId);
    return {
      sessionId,
      messageId,
      content: plan.content,
      files: plan.files.map(({ absolute: _a, target: _t, expected: _e, workingDir: _w, ...file }) => file),
      commands: plan.commands,
      unfinishedRunId: this.journal.unfinished(sessionId)[0]?.id ?? null,
    };
  }

  diff(sessionId: number, messageId: number, path: string) {
    const file = buildPlan(this.deps, sessionId, messageId).files.find((f) => f.path === path);
    if (!file) throw new BridgeError('not_found', 'No call after that message wrote this file.');
    const now = readNow(this.deps, file.absolute, file.workingDir, true);
    return {
      path: file.path,
      language: kindOfPath(file.path).language,
      before: this.image(file.target),
      after: this.image(file.expected),
      current:
        now.kind === 'refused'
          ? ({ state: 'skipped', text: null } as FileImage)
          : now.bytes === null
            ? ({ state: 'absent', text: null } as FileImage)
            : { state: 'file' as const, text: decodeText(now.bytes)?.text ?? now.bytes.toString('utf8') },
    };
  }

  private image(content: Content | undefined): FileImage {
    if (content === undefined) return { state: 'skipped', text: null };
    if (content === null) return { state: 'absent', text: null };
    const bytes = this.deps.blobs.get(content);
    return bytes
      ? { state: 'file', text: decodeText(bytes)?.text ?? bytes.toString('utf8') }
      : { state: 'skipped', text: null };
  }

  apply(request: {
    sessionId: number;
    messageId: number;
    mode: RewindMode;
    seen: readonly { path: string; hash: string | null }[];
    choices?: readonly { path: string; choice: 'restore' | 'keep' }[];
  }): RewindResult {
    const { sessionId, messageId, mode } = request;
    if (this.deps.isRunning(sessionId))
      throw new BridgeError('busy', 'A turn is running in this chat; stop it or wait for it before you rewind.');
    if (this.journal.unfinished(sessionId).length)
      throw new BridgeError('unfinished', 'An earlier rewind of this chat was interrupted; finish it first.');
    const plan = buildPlan(this.deps, sessionId, messageId);
    const steps = withFiles(mode) ? this.stepsOf(plan.files, request) : [];
    if ('changed' in steps) return { status: 'changed', message: steps.changed };
    this.deps.afterStep?.(-2);
    const runId = this.deps.store.transaction(() => {
      const runId = this.journal.begin(sessionId, messageId, mode, steps);
      recordDecision(this.deps.db, {
        toolCallId: `rewind-${runId}`,
        sessionId,
        decision: {
          action: 'allow',
          why: { kind: 'human', text: decisionText(messageId, mode, steps, plan.commands.length) },
          actor: 'user',
        },
        argsHash: argsHash({ messageId, mode, steps }),
      });
      return runId;
    });
    this.deps.afterStep?.(-1);
    return this.finish(runId);
  }

  /** The steps the person confirmed, or why the preview they saw no longer holds. */
  private stepsOf(
    files: readonly FilePlan[],
    request: Parameters<RewindService['apply']>[0],
  ): Omit<Step, 'seq'>[] | { changed: string } {
    const seen = new Map(request.seen.map((s) => [s.path, s.hash]));
    const choices = new Map((request.choices ?? []).map((c) => [c.path, c.choice]));
    const steps: Omit<Step, 'seq'>[] = [];
    for (const file of files) {
      if (file.state === 'unchanged') continue;
      const keep = (detail: string) =>
        steps.push({ path: file.path, shown: file.shown, action: 'keep', from: null, target: null, detail });
      if (file.state === 'unavailable') {
        keep(file.reason ?? 'No before-image.');
        continue;
      }
      if (!seen.has(file.path) || seen.get(file.path) !== file.currentHash)
        return { changed: `${file.shown} changed after the preview; look again before you rewind.` };
      const choice = file.state === 'conflict' ? choices.get(file.path) : 'restore';
      if (!choice) return { changed: `${file.shown} was changed by someone else; choose to restore it or keep it.` };
      if (choice === 'keep') keep('You kept it as it is.');
      else
        steps.push({
          path: file.path,
          shown: file.shown,
          action: file.target === null ? 'remove' : 'write',
          from: file.currentHash,
          target: file.target as Content,
          detail: null,
        });
    }
    return steps;
  }

  /** Runs (or runs again) every step of a run, then ends it in one commit with the chat's fork and the note. */
  private finish(runId: number): RewindResult {
    const run = this.journal.run(runId);
    if (!run) throw new BridgeError('not_found', 'No such rewind.');
    if (this.busy.has(run.sessionId)) throw new BridgeError('busy', 'This rewind is already running.');
    this.busy.add(run.sessionId);
    try {
      const workingDir = this.deps.workingDir(run.sessionId);
      const outcomes: RewindOutcome[] = [];
      const folders = new Set<string>();
      for (const step of this.journal.steps(runId)) {
        const outcome = runStep(this.deps, step, workingDir);
        if (outcome.outcome === 'restored' && step.action !== 'keep') folders.add(dirname(step.path));
        outcomes.push(outcome);
        this.deps.afterStep?.(step.seq);
      }
      // The renames durable before the end is committed (restore.ts): one fsync a folder, not one a file.
      for (const folder of folders) syncFolder(folder);
      const content =
        (
          this.deps.db.prepare('SELECT content FROM chat_history WHERE id = ?').get(run.messageId) as
            | { content: string }
            | undefined
        )?.content ?? '';
      if (run.state === 'running') {
        this.deps.store.transaction(() => {
          this.journal.end(runId, outcomes);
          if (withChat(run.mode)) this.deps.store.markReplaced(run.sessionId, run.messageId);
          this.deps.store.appendMessage({
            sessionId: run.sessionId,
            role: 'agent',
            content: rewindNote(run.mode, content, outcomes),
          });
        });
        this.deps.afterStep?.(outcomes.length);
        this.emit(run.sessionId, run.messageId, runId, run.mode);
      }
      return { status: 'done', runId, files: outcomes, composer: withChat(run.mode) ? content : null };
    } finally {
      this.busy.delete(run.sessionId);
    }
  }

  private emit(sessionId: number, messageId: number, runId: number, mode: RewindMode): void {
    const events = this.deps.events;
    if (!events) return;
    if (withChat(mode)) {
      const body: ChatEventBody = { type: 'messages_replaced', from_id: messageId };
      events.emit('chat', { ...body, session_id: sessionId } as never);
    }
    events.emit('rewind', { type: 'rewound', sessionId, runId, mode });
  }

  resume(runId: number): RewindResult {
    const run = this.journal.run(runId);
    if (!run) throw new BridgeError('not_found', 'No such rewind.');
    if (run.state === 'done') throw new BridgeError('done', 'That rewind has finished already.');
    if (this.deps.isRunning(run.sessionId))
      throw new BridgeError('busy', 'A turn is running in this chat; finish the rewind once it has ended.');
    return this.finish(runId);
  }

  /** Interrupted runs, each file's state read from disk: the journal says which files are restored and which not. */
  unfinished(): RewindRun[] {
    return this.journal.unfinished().map((run) => {
      const workingDir = this.deps.workingDir(run.sessionId);
      return {
        runId: run.id,
        sessionId: run.sessionId,
        messageId: run.messageId,
        mode: run.mode,
        createdAt: run.createdAt,
        files: this.journal
          .steps(run.id)
          .map((s) => ({ path: s.path, shown: s.shown, state: stepState(this.deps, s, workingDir) })),
      };
    });
  }

  storeUsage(limits: { maxMb: number; keepDays: number }): StoreUsage {
    const d = this.deps.blobs.droppedBy(limits);
    return {
      usedBytes: d.usedBytes,
      images: d.total,
      drops: { images: d.images.length, bytes: d.bytes, newestDroppedAt: d.newestDroppedAt },
    };
  }
}

/** The decision log's one entry: what the person chose and every file it touches. */
function decisionText(
  messageId: number,
  mode: RewindMode,
  steps: readonly Omit<Step, 'seq'>[],
  commands: number,
): string {
  const what = { files_and_chat: 'files and chat', files: 'files only', chat: 'chat only' }[mode];
  const list = (action: Step['action']) =>
    steps
      .filter((s) => s.action === action)
      .map((s) => s.shown)
      .join(', ');
  const parts = [`Rewind by you to before message ${messageId} (${what}).`];
  if (list('write')) parts.push(`Restore: ${list('write')}.`);
  if (list('remove')) parts.push(`Remove (created after it): ${list('remove')}.`);
  if (list('keep')) parts.push(`Keep as it is: ${list('keep')}.`);
  if (commands) parts.push(`${commands} command(s) ran after it; their effects are not undone.`);
  return parts.join(' ');
}
