/**
 * One step of a rewind on disk (docs/rewind.md "Restoring"): the file is read as it is now (through the disk module,
 * under the viewer's read policy: no link on its path, never a FIFO, a hard link to a guarded file refused); when it
 * already holds the target the step has run; when it holds what the person confirmed over, the before-image is
 * written by the one atomic writer (temp file, fsync, rename) or the file the agent created is removed; anything
 * else is a change nobody confirmed, and the file is left alone. So a step runs at most once, and a run a crash cut
 * short is finished by running its steps again. Each file's bytes are fsynced before its rename; the folders are
 * fsynced once each after the last step (the service, before the run's end is committed): a rename a crash lost
 * leaves the file as it was, which the next run of the step sees and restores.
 */
import type { RewindOutcome } from '../../../shared/contract/rewind';
import { DiskError } from '../disk/disk-error';
import { canonicalRoot } from '../disk/protected';
import { atomicWrite, removeInside } from '../disk/write';
import { hashBytes } from '../viewer/blob-store';
import { applyReadPolicy } from '../viewer/read-policy';
import type { Step } from './journal';
import { readNow, type RewindPorts } from './plan';

/** What a step's file is on disk now: `restored`, `pending` (as the person confirmed over), `changed` (neither). */
export function stepState(ports: RewindPorts, step: Step, workingDir: string): 'restored' | 'pending' | 'changed' {
  if (step.action === 'keep') return 'restored';
  const now = readNow(ports, step.path, workingDir);
  if (now.kind === 'refused') return 'changed';
  return now.hash === step.target ? 'restored' : now.hash === step.from ? 'pending' : 'changed';
}

export function runStep(ports: RewindPorts, step: Step, workingDir: string): RewindOutcome {
  const { path, shown } = step;
  if (step.action === 'keep') return { path, shown, outcome: 'kept', ...(step.detail ? { message: step.detail } : {}) };
  const now = readNow(ports, path, workingDir);
  if (now.kind === 'refused') return { path, shown, outcome: 'failed', message: `Left as it is: ${now.reason}.` };
  if (now.hash === step.target) return { path, shown, outcome: 'restored' };
  if (now.hash !== step.from)
    return { path, shown, outcome: 'failed', message: 'Left as it is: it changed after you confirmed the rewind.' };
  const root = canonicalRoot(workingDir);
  // The read policy asked again right before the rename or unlink: a folder on the way swapped for a link into
  // secrets/ or the data folder meanwhile is refused there.
  const isStillAllowed = (p: string) => {
    try {
      const checked = applyReadPolicy(p, workingDir, ports.policyOf(workingDir));
      return !checked.isOutside && checked.real === p;
    } catch {
      return false;
    }
  };
  try {
    if (step.target === null) {
      removeInside({ path, shown, root, isStillAllowed, syncFolder: false });
    } else {
      const bytes = ports.blobs.get(step.target);
      if (!bytes || hashBytes(bytes) !== step.target)
        return {
          path,
          shown,
          outcome: 'failed',
          message: 'Left as it is: its before-image is gone from the blob store.',
        };
      atomicWrite({ path, shown, root, isStillAllowed, syncFolder: false }, bytes);
    }
  } catch (error) {
    const reason = error instanceof DiskError ? error.message : `could not be written (${(error as Error).message})`;
    return { path, shown, outcome: 'failed', message: `Left as it is: ${reason}` };
  }
  return { path, shown, outcome: 'restored' };
}
