/**
 * What a walk (grep_files, list_files recursive) must leave out (docs/approval.md "Walks skip what is protected"),
 * for the gate's `walkPolicy`: secrets/, the data folder, the credential stores, and every entry a deny or ask rule
 * with a path pattern covers. A guard or rule that covers the walk's root itself is left out: it decided the whole
 * call already (denied it, or a person approved it). Entries are judged by their real path, with no I/O.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, sep } from 'node:path';
import { ruleLabel } from '../../../shared/contract/approval';
import { hasComponent } from '../tools/_policy/paths';
import type { ProtectedPaths } from '../tools/tool';
import { type Guards, HOME_CREDENTIALS, isCredentialPath, relIn, SYSTEM_CREDENTIALS, type Roots } from './guards';
import { normalizePathPattern, pathFacts } from './patterns';
import type { CompiledRule } from './rules-repository';

/** A path with `/` separators, as rule patterns are written. */
export const slash = (p: string): string => (sep === '/' ? p : p.split(sep).join('/'));

/**
 * The walk's exclusions from `rootReal`, its root's real path, under `roots`. `candidates`: the deny and ask rules
 * with a path pattern for the call; when they cannot be loaded the call itself asked, so the walk keeps the guards only.
 */
export function walkExclusions(
  guards: Guards,
  roots: Roots,
  rootReal: string,
  candidates: () => CompiledRule[],
): ProtectedPaths {
  const rootFacts = pathFacts(relIn(rootReal, roots.wsCanon), slash(rootReal));
  const guardsData = !guards.isDataDir(roots, rootReal);
  // A walk that starts inside a credential store was asked for as such (the call's path asked); any other leaves
  // them out, as it does secrets/: a working directory that is the home folder holds ~/.ssh.
  const homes = guards.homes(); // once per walk: `excludes` runs for each entry
  const isCredential = (real: string) => homes.some((home) => isCredentialPath(real, home));
  const guardsCredentials = !isCredential(rootReal);
  let rules: CompiledRule[] = [];
  try {
    rules = candidates().filter((c) => !c.path!(rootFacts));
  } catch {
    rules = [];
  }
  const excludes = (real: string): boolean => {
    const rel = relIn(real, roots.wsCanon);
    if (rel !== null && hasComponent(rel, 'secrets')) return true;
    if (guardsData && guards.isDataDir(roots, real)) return true;
    if (guardsCredentials && isCredential(real)) return true;
    if (rules.length === 0) return false;
    const facts = pathFacts(rel, slash(real));
    return rules.some((c) => c.path!(facts));
  };
  const describeUnder = (root: string): string[] => {
    const out: string[] = [];
    const add = (abs: string, why: string) => {
      const rel = relIn(abs, root);
      if (rel !== null && rel !== '' && existsSync(abs)) out.push(`${rel} (${why})`);
    };
    if (guardsData && guards.isDataDir(roots, roots.dataCanon)) add(roots.dataCanon, "the app's data folder");
    if (guardsCredentials) {
      for (const home of homes) for (const c of HOME_CREDENTIALS) add(join(home, c), 'a credential store');
      for (const c of SYSTEM_CREDENTIALS) add(c, 'a credential store');
    }
    for (const c of rules) {
      const pattern = normalizePathPattern(c.rule.path_pattern!);
      const base = pattern.endsWith('/*') ? pattern.slice(0, -2) : pattern;
      const abs = isAbsolute(base) ? base : join(roots.wsCanon, base);
      const why = ruleLabel(c.rule);
      if (!base.endsWith('*')) add(abs, why);
      else {
        // A prefix pattern (`priv*`): name the entries of its folder that it covers.
        const prefix = abs.slice(abs.lastIndexOf('/') + 1, -1).toLowerCase();
        let names: string[] = [];
        try {
          names = readdirSync(dirname(abs));
        } catch {
          names = [];
        }
        for (const n of names) if (n.toLowerCase().startsWith(prefix)) add(join(dirname(abs), n), why);
      }
    }
    return [...new Set(out)];
  };
  return { excludes, describeUnder };
}
