/**
 * Hard links to guarded files: the judgement lives in the disk module (src/main/core/disk/hardlinks.ts, docs/guards.md
 * "Hard links"); the gate and the tools' tests import it under this name.
 */
export {
  forgetGuardedIdentities,
  guardedIdentities,
  hardLinkVerdict,
  hardLinkVerdictAt,
  MAX_WALK_DIRS,
  type GuardedIdentities,
} from '../../disk/hardlinks';
