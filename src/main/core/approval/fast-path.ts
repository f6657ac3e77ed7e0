/**
 * The run context's file fast path (docs/approval.md "Evaluation order", step 4): an implicit allow for the file
 * tools inside the working directory, its docs/ and skills/, and the run context's `allow_fs_reads` (reading) and
 * `allow_fs_writes` (reading and writing). The gate applies it only to the fallback require, never over an explicit
 * ask rule or a deny. Roots are compared in their canonical form, as the call's path is.
 */
import { isAbsolute, resolve } from 'node:path';
import type { RunContext } from '../../../shared/run-context';
import { isFileTool, type ToolTraits } from '../../../shared/tool-traits';
import { canonicalizeForPolicy } from '../tools/_policy/paths';
import type { CallFacts } from './evaluate';
import { relIn } from './guards';
import { slash } from './walk-policy';

/** The sentence of the allow when the call's path is below one of the roots the run context auto-allows; else null. */
export function fastPathAllows(
  tool: ToolTraits | null,
  rc: RunContext,
  wd: string,
  facts: Pick<CallFacts, 'path'>,
): string | null {
  if (!facts.path) return null;
  if (!isFileTool(tool)) return null;
  const isWrite = tool!.kind === 'edit';
  const roots = isWrite
    ? (rc.allow_fs_writes ?? [])
    : [wd, resolve(wd, 'docs'), resolve(wd, 'skills'), ...(rc.allow_fs_reads ?? []), ...(rc.allow_fs_writes ?? [])];
  const target = facts.path.abs;
  for (const root of roots) {
    const canonRoot = slash(canonicalizeForPolicy(isAbsolute(root) ? root : resolve(wd, root), wd));
    if (relIn(target, canonRoot) !== null)
      return `Allowed by the run context: inside ${canonRoot}, which it auto-allows for ${isWrite ? 'writing' : 'reading'}.`;
  }
  return null;
}
