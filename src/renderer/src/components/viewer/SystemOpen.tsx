/**
 * "Open with the system app" under a file the viewer has no view for (docs/viewer.md "Open with the system app").
 * The core decides whether it is offered (the desktop only; never a program, script or launcher) and says why
 * not; a click first asks here, naming the file and what will happen, and only "Open it" sends the confirmed call.
 */
import { useState } from 'react';
import type { SystemOpenResult, ViewerFile } from '../../../../shared/contract/viewer';
import { skald } from '../../bridge/skald';

type Step =
  | { at: 'idle'; cancelled?: boolean }
  | { at: 'confirm' }
  | { at: 'busy' }
  | { at: 'done'; result: SystemOpenResult };

export function SystemOpen({ file }: { file: ViewerFile }) {
  const [step, setStep] = useState<Step>({ at: 'idle' });
  const offer = file.systemOpen;
  if (!offer) return null;
  if (offer.status !== 'offered') {
    return (
      <p className="viewer-system-open muted" data-testid="system-open-unavailable" data-status={offer.status}>
        {offer.message}
      </p>
    );
  }
  const open = async () => {
    setStep({ at: 'busy' });
    try {
      setStep({ at: 'done', result: await skald.viewer.openWithSystem({ handle: file.handle, confirmed: true }) });
    } catch (e) {
      setStep({ at: 'done', result: { status: 'not_opened', reason: 'failed', message: (e as Error).message } });
    }
  };
  const ext = file.name.includes('.') ? `.${file.name.split('.').pop()}` : null;
  return (
    <div className="viewer-system-open" data-testid="system-open">
      {/* The focus follows the question: to Cancel (the safe answer) when it is asked, back here when cancelled. */}
      {step.at === 'idle' && (
        <button autoFocus={step.cancelled} onClick={() => setStep({ at: 'confirm' })}>
          Open with the system app…
        </button>
      )}
      {(step.at === 'confirm' || step.at === 'busy') && (
        <div
          className="viewer-confirm-box"
          role="alertdialog"
          aria-label="Open with the system app?"
          data-testid="system-open-confirm"
        >
          <p>
            <strong>Open {file.name} with the system app?</strong>
          </p>
          <p>
            Your system will start whatever program it associates with {ext ? `${ext} files` : 'this file'} and hand it{' '}
            <code>{file.absolute}</code>. That program runs outside Skald, with your permissions; Skald cannot see or
            stop what it does.
          </p>
          <div className="viewer-confirm-actions">
            <button className="primary" disabled={step.at === 'busy'} onClick={() => void open()}>
              Open it
            </button>
            <button autoFocus disabled={step.at === 'busy'} onClick={() => setStep({ at: 'idle', cancelled: true })}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {step.at === 'done' && (
        <p
          className={step.result.status === 'opened' ? 'muted' : 'viewer-message error'}
          data-testid="system-open-result"
          role="status"
        >
          {step.result.status === 'opened' ? `Asked the system to open ${file.name}.` : step.result.message}
        </p>
      )}
    </div>
  );
}
