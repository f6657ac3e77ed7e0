/**
 * The accessibility check of a screen (docs/ui.md "Accessibility"): axe-core, the engine behind Lighthouse's audit,
 * run in the page in the light and the dark theme. Any violation fails the test, whatever its impact, with its rule,
 * its elements and axe's own words, except a moderate or minor one listed in `ACCEPTED` with the reason (docs/ui.md
 * keeps the same list). `AXE_LOG=1` prints every finding and fails on none, to survey a screen.
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
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Moderate or minor findings we keep, by rule, with why. Empty: every one found was fixed. */
const ACCEPTED: Record<string, string> = {};

/**
 * The rules whose answer depends on the colours; the others read the page's structure, which is the same in both
 * themes, so the second theme is checked by these alone (half the time of a whole run).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** Runs axe on the page as it is now, in the theme it shows: every rule, or only `rules`. */
export async function axeViolations(page: Page, rules?: string[]): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (only) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, options: unknown) => Promise<unknown> } }).axe;
    const options = { resultTypes: ['violations'], ...(only ? { runOnly: { type: 'rule', values: only } } : {}) };
    const result = (await axe.run(document, options)) as {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      }[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.map(String),
        ...(n.failureSummary ? { failureSummary: n.failureSummary } : {}),
      })),
    }));
  }, rules);
}

/** One line per element: how bad, which rule, where, and axe's reason. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .flatMap((v) =>
      v.nodes.map((n) => {
        const why = (n.failureSummary ?? '').replace(/\s+/g, ' ').trim();
        return `${v.impact} ${v.id} (${v.help}) at ${n.target.join(' > ')}: ${why}`;
      }),
    )
    .join('\n');
}

const isAccepted = (v: AxeViolation) => v.impact !== 'serious' && v.impact !== 'critical' && v.id in ACCEPTED;

/**
 * Waits for the page's running transitions and finite animations (a button fading in, the theme's colours) to end,
 * so colours are measured as they stay; endless ones (a spinner) are left running.
 */
async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/**
 * Checks the page as it is in the light theme with every rule and in the dark theme with the colour rules (the app
 * follows the emulated colour scheme, docs/ui.md "Themes"); throws on any violation not accepted, naming the screen, the theme and every element.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const failures: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, colorScheme);
    await animationsSettled(page);
    const started = Date.now();
    const violations = await axeViolations(page, colorScheme === 'light' ? undefined : COLOUR_RULES);
    if (process.env.AXE_LOG)
      console.log(`--- ${screen} (${colorScheme}, ${Date.now() - started} ms)\n${describeViolations(violations)}`);
    const failing = violations.filter((v) => !isAccepted(v));
    if (failing.length) failures.push(`${screen}, ${colorScheme} theme:\n${describeViolations(failing)}`);
  }
  await page.emulateMedia({ colorScheme: null });
  if (failures.length && !process.env.AXE_LOG) throw new Error(`axe found violations:\n${failures.join('\n\n')}`);
}
