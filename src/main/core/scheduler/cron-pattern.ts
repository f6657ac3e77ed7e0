/**
 * Cron patterns, read by croner (docs/scheduler.md "Patterns"): 6 fields with seconds (`sec min hour day month
 * weekday`), 7 with a year, or the classic 5 (minute-level, second 0); or an ISO 8601 date-time for a one-shot job.
 * Times are the machine's local time. Croner is used only as a calculator (a paused job with no callback): the
 * scheduler's own tick decides when to run, so a run is never started by a timer the database does not know of.
 */
import { Cron } from 'croner';

export interface ParsedPattern {
  /** The pattern as given (trimmed). */
  pattern: string;
  /** An ISO date-time: the job runs once. */
  singleRun: boolean;
}

/** The ISO shape croner takes as a one-shot (`2030-01-01T09:00`, with seconds, a fraction or an offset). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

function calculator(pattern: string): Cron {
  return new Cron(pattern, { paused: true });
}

/** The pattern, or a sentence the model (or person) can act on. */
export function parsePattern(raw: string, now: number = Date.now()): ParsedPattern | { error: string } {
  const pattern = raw.trim().replace(/\s+/g, ' ');
  const singleRun = ISO_DATE_TIME.test(pattern);
  let job: Cron;
  try {
    job = calculator(pattern);
  } catch (error) {
    return {
      error: `"${raw}" is not a cron pattern: ${(error as Error).message.replace(/^CronPattern: /, '')}. Use 6 fields with seconds ("sec min hour day month weekday", e.g. "0 0 9 * * 1-5" for 09:00 on weekdays), 7 with a year, or an ISO date-time ("2030-01-31T09:00:00") for one run.`,
    };
  }
  const next = job.nextRun(new Date(now));
  job.stop();
  if (!next)
    return {
      error: singleRun ? `"${raw}" is in the past; give a future date-time.` : `"${raw}" never matches a future time.`,
    };
  return { pattern, singleRun };
}

/** The first time strictly after `after` (epoch ms) the pattern matches; null when it never will again. */
export function nextRunAfter(pattern: string, after: number): number | null {
  let job: Cron;
  try {
    job = calculator(pattern);
  } catch {
    return null; // a pattern saved by an older build that this croner refuses: the job simply never comes due
  }
  const next = job.nextRun(new Date(after));
  job.stop();
  return next ? next.getTime() : null;
}
