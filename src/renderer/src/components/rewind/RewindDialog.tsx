/**
 * The Rewind dialog (docs/rewind.md "In the chat"): what a rewind to before one of the person's messages would do,
 * file by file with its diff to now, the commands whose effects are not tracked, a choice per conflicting file, and
 * the three ways to go: files and chat, files only, chat only. The core decides and writes; this only shows and asks.
 */
import { useEffect, useRef, useState } from 'react';
import type { RewindFile, RewindMode, RewindPreview, RewindResult } from '../../../../shared/contract/rewind';
import { skald } from '../../bridge/skald';
import { chat } from '../../stores/chat-store';
import { useDialogFocus } from '../../lib/use-dialog-focus';
import { DiffView } from '../DiffView';
import { closeRewind, handToComposer } from './rewind-store';
import './rewind.css';

type Diff = Awaited<ReturnType<typeof skald.rewind.diff>>;
type Choice = 'restore' | 'keep';

const CHANGE_WORDS: Record<RewindFile['change'], string> = {
  edited: 'edited',
  created: 'created',
  deleted: 'deleted',
};

function stateWords(file: RewindFile): string {
  if (file.state === 'unchanged') return 'already as before';
  if (file.state === 'unavailable') return 'cannot be restored';
  if (file.state === 'conflict') return 'changed since by someone else';
  return file.change === 'created'
    ? 'will be removed'
    : file.change === 'deleted'
      ? 'will be written back'
      : 'will be restored';
}

const textOf = (image: Diff['before'], what: string) =>
  image.state === 'absent' ? `(no file ${what})` : image.text === null ? `(no copy kept ${what})` : image.text;

function FileDetail({ preview, file }: { preview: RewindPreview; file: RewindFile }) {
  const [diff, setDiff] = useState<Diff | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    skald.rewind
      .diff({ sessionId: preview.sessionId, messageId: preview.messageId, path: file.path })
      .then(setDiff, (e: Error) => setError(e.message));
  }, [preview.sessionId, preview.messageId, file.path]);
  if (error) return <div className="msg-action-error">{error}</div>;
  if (!diff) return <div className="muted small">Loading…</div>;
  if (file.state === 'conflict')
    return (
      <div className="rewind-three" data-testid="rewind-three">
        {(
          [
            ['Before your message', diff.before, 'before it'],
            ['As the agent left it', diff.after, 'after the agent'],
            ['Now', diff.current, 'now'],
          ] as const
        ).map(([label, image, what]) => (
          <section key={label}>
            <h4>{label}</h4>
            <pre className="rewind-text">{textOf(image, what)}</pre>
          </section>
        ))}
      </div>
    );
  // What the rewind changes: from the file now to the file before the message.
  return (
    <div data-testid="rewind-diff">
      <DiffView oldText={diff.current.text ?? ''} newText={diff.before.text ?? ''} />
    </div>
  );
}

function FileRow({
  preview,
  file,
  choice,
  onChoice,
}: {
  preview: RewindPreview;
  file: RewindFile;
  choice: Choice | undefined;
  onChoice: (choice: Choice) => void;
}) {
  const [open, setOpen] = useState(file.state === 'conflict');
  return (
    <li className={`rewind-file rewind-${file.state}`} data-testid="rewind-file" data-state={file.state}>
      <button
        className="rewind-file-head"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        disabled={file.state === 'unchanged'}
      >
        <span className={`rewind-change rewind-change-${file.change}`}>{CHANGE_WORDS[file.change]}</span>
        <code className="rewind-path">{file.shown}</code>
        {file.bySubAgent && <span className="rewind-tag">sub-agent</span>}
        <span className="rewind-state">{stateWords(file)}</span>
      </button>
      {file.reason && file.state !== 'restore' && <div className="muted small rewind-reason">{file.reason}</div>}
      {file.state === 'conflict' && (
        <fieldset className="rewind-choice" data-testid="rewind-choice">
          <legend className="small">Nothing is overwritten unless you say so:</legend>
          <label>
            <input
              type="radio"
              name={`c-${file.path}`}
              checked={choice === 'restore'}
              onChange={() => onChoice('restore')}
            />{' '}
            Restore the version from before your message
          </label>
          <label>
            <input type="radio" name={`c-${file.path}`} checked={choice === 'keep'} onChange={() => onChoice('keep')} />{' '}
            Keep it as it is now
          </label>
        </fieldset>
      )}
      {open && file.state !== 'unchanged' && file.state !== 'unavailable' && (
        <FileDetail preview={preview} file={file} />
      )}
    </li>
  );
}

export function RewindDialog({ sessionId, messageId }: { sessionId: number; messageId: number }) {
  const [preview, setPreview] = useState<RewindPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<Extract<RewindResult, { status: 'done' }>['files'] | null>(null);
  // Focus into the dialog, kept there, Escape closes it, and back to where it was (lib/use-dialog-focus.ts).
  const dialog = useRef<HTMLDivElement>(null);
  useDialogFocus(dialog, closeRewind);
  const load = () =>
    skald.rewind.preview({ sessionId, messageId }).then(
      (p) => (setPreview(p), setError(null)),
      (e: Error) => setError(e.message),
    );
  useEffect(() => void load(), [sessionId, messageId]);

  const finished = async (result: RewindResult) => {
    if (result.status === 'changed') {
      setError(result.message);
      await load();
      return;
    }
    await chat.reload();
    if (result.composer !== null) handToComposer(sessionId, result.composer);
    const left = result.files.filter((f) => f.outcome === 'failed');
    if (left.length) setFailed(left);
    else closeRewind();
  };
  const act = async (work: () => Promise<RewindResult>) => {
    setBusy(true);
    setError(null);
    try {
      await finished(await work());
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const apply = (mode: RewindMode) =>
    act(() =>
      skald.rewind.apply({
        sessionId,
        messageId,
        mode,
        seen: preview!.files.map((f) => ({ path: f.path, hash: f.currentHash })),
        choices: Object.entries(choices).map(([path, choice]) => ({ path, choice })),
      }),
    );

  const conflicts = preview?.files.filter((f) => f.state === 'conflict') ?? [];
  const undecided = conflicts.some((f) => !choices[f.path]);
  const toRestore = preview?.files.filter((f) => f.state === 'restore' || f.state === 'conflict').length ?? 0;
  return (
    <div className="overlay" role="presentation" onMouseDown={closeRewind}>
      <div
        ref={dialog}
        tabIndex={-1}
        className="dialog rewind-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="rewind-title"
        data-testid="rewind-dialog"
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') e.preventDefault(), e.stopPropagation(), closeRewind();
        }}
      >
        <h2 id="rewind-title">Rewind to before this message</h2>
        {preview && <blockquote className="rewind-quote">{preview.content || '(no text)'}</blockquote>}
        {failed ? (
          <div data-testid="rewind-failed">
            <p>The rewind is done, but these files were left as they are:</p>
            <ul className="rewind-list">
              {failed.map((f) => (
                <li key={f.path}>
                  <code>{f.shown}</code> — {f.message}
                </li>
              ))}
            </ul>
            <div className="rewind-actions">
              <button className="primary" autoFocus onClick={closeRewind}>
                Close
              </button>
            </div>
          </div>
        ) : (
          <>
            {error && (
              <div className="msg-action-error" role="alert" data-testid="rewind-error">
                {error}
              </div>
            )}
            {preview?.unfinishedRunId != null && (
              <div className="rewind-banner" data-testid="rewind-unfinished">
                An earlier rewind of this chat was interrupted before it finished.{' '}
                <button
                  disabled={busy}
                  onClick={() => void act(() => skald.rewind.resume({ runId: preview.unfinishedRunId! }))}
                >
                  Finish it
                </button>
              </div>
            )}
            {preview && (
              <>
                <h3 className="rewind-h">Files the agent changed after it ({preview.files.length})</h3>
                {preview.files.length === 0 ? (
                  <p className="muted small">No tool wrote a file after this message.</p>
                ) : (
                  <ul className="rewind-list" data-testid="rewind-files">
                    {preview.files.map((file) => (
                      <FileRow
                        key={file.path}
                        preview={preview}
                        file={file}
                        choice={choices[file.path]}
                        onChoice={(choice) => setChoices((c) => ({ ...c, [file.path]: choice }))}
                      />
                    ))}
                  </ul>
                )}
                {preview.commands.length > 0 && (
                  <div data-testid="rewind-commands">
                    <h3 className="rewind-h">Commands that ran after it ({preview.commands.length})</h3>
                    <p className="muted small">What commands did is not tracked: a rewind does not undo it.</p>
                    <ul className="rewind-list">
                      {preview.commands.map((c) => (
                        <li key={c.toolCallId}>
                          <code>{c.label}</code>
                        </li>
                      ))}
                    </ul>
                  </div>
                )}
                <p className="muted small">
                  Rewinding the chat keeps what came after as an earlier branch (shown as replaced), and puts your
                  message back in the message box.
                </p>
                <div className="rewind-actions">
                  <button onClick={closeRewind}>Cancel</button>
                  <button disabled={busy} data-testid="rewind-chat-only" onClick={() => void apply('chat')}>
                    Chat only
                  </button>
                  <button
                    disabled={busy || undecided || toRestore === 0}
                    data-testid="rewind-files-only"
                    onClick={() => void apply('files')}
                  >
                    Files only
                  </button>
                  <button
                    className="primary"
                    disabled={busy || undecided}
                    data-testid="rewind-apply"
                    title={undecided ? 'Choose for each file changed by someone else first' : undefined}
                    onClick={() => void apply('files_and_chat')}
                  >
                    Restore files and chat
                  </button>
                </div>
              </>
            )}
          </>
        )}
      </div>
    </div>
  );
}
