/**
 * The accessibility check of a screen (docs/ui.md "Accessibility"): axe-core, the engine behind Lighthouse's audit,
 * run in the page in both themes. A serious or critical violation fails the test with its rule, its elements and
 * axe's own words; moderate and minor ones are returned for the spec to compare with the list docs/ui.md keeps.
 *
 * axe-core is evaluated in the page by Playwright (CDP's Runtime.evaluate, which the page's Content Security Policy
 * does not govern, where a <script> tag would be refused) rather than through `@axe-core/playwright`, whose releases
 * from 4.14 declare Node >= 22.12 while the tests run on Node 20; the engine itself declares Node >= 4.
 */
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);
const AXE_SOURCE = (require('axe-core') as { source: string }).source;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string; html: string }[];
}

/** Rules we leave out, each with why (docs/ui.md lists them too). */
const DISABLED_RULES: Record<string, string> = {
  // The viewer's sandboxed HTML preview is the file's own page, not ours: axe cannot reach into a sandboxed,
  // script-less frame and reports it as "needs review", never as a violation; nothing to leave out today.
};

/** Runs axe on the page as it is now, in the theme it shows. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const hasAxe = await page.evaluate(() => 'axe' in window);
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (disabled) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, options: unknown) => Promise<unknown> } }).axe;
    const rules = Object.fromEntries(disabled.map((id) => [id, { enabled: false }]));
    const result = (await axe.run(document, { resultTypes: ['violations'], rules })) as {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string; html: string }[];
      }[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.map(String),
        html: n.html.slice(0, 160),
        ...(n.failureSummary ? { failureSummary: n.failureSummary } : {}),
      })),
    }));
  }, Object.keys(DISABLED_RULES));
}

const BLOCKING = new Set(['serious', 'critical']);

/** One line per element: where, which rule, and axe's reason. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.impact} ${v.id} (${v.help}) at ${n.target.join(' > ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`,
      ),
    )
    .join('\n');
}

/** What axe found that is not serious or critical, by screen (kept for the spec's own check). */
export const lesserFindings = new Map<string, AxeViolation[]>();

/**
 * Checks the page as it is in the light and the dark theme (the app follows the emulated colour scheme, docs/ui.md
 * "Themes"); throws on any serious or critical violation, naming the screen, the theme and every element.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const failures: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, colorScheme);
    // Transitions (a fading button) finish before colours are measured.
    await page.waitForTimeout(120);
    const violations = await axeViolations(page);
    const blocking = violations.filter((v) => BLOCKING.has(v.impact ?? ''));
    const lesser = violations.filter((v) => !BLOCKING.has(v.impact ?? ''));
    if (lesser.length) lesserFindings.set(`${screen} (${colorScheme})`, lesser);
    if (process.env.AXE_LOG) console.log(`--- ${screen} (${colorScheme})\n${describeViolations(violations)}`);
    if (blocking.length) failures.push(`${screen}, ${colorScheme} theme:\n${describeViolations(blocking)}`);
  }
  await page.emulateMedia({ colorScheme: null });
  if (failures.length && !process.env.AXE_LOG)
    throw new Error(`axe found serious or critical violations:\n${failures.join('\n\n')}`);
}
