/**
 * The bypass choices a card offers and how their time is shown (docs/bypass.md): durations, the local end time and
 * a live countdown. Pure functions; the components tick them once a second.
 */
import type { BYPASS_SCOPE_KINDS } from '../../../shared/contract/approval';

export type BypassKind = (typeof BYPASS_SCOPE_KINDS)[number];

export const BYPASS_DURATIONS: readonly { secs: number; label: string }[] = [
  { secs: 15 * 60, label: '15 minutes' },
  { secs: 60 * 60, label: '1 hour' },
  { secs: 0, label: 'this session' },
];

/** Wider than one tool: worth a warning colour on the card. */
export const isWideScope = (kind: BypassKind) => kind === 'category' || kind === 'mcp_server' || kind === 'all';

/** `18:47` in the person's own clock (seconds only when it ends within the minute). */
export function localTime(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** `14:05 left`, `1:02:03 left`; `ended` once past. */
export function remaining(expiresAt: number, now: number): string {
  const total = Math.max(0, Math.ceil((expiresAt - now) / 1000));
  if (total === 0) return 'ended';
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${h ? `${h}:${two(m)}` : m}:${two(s)} left`;
}

/** What the approve button says before the click: when it would end, in local time. */
export function untilText(secs: number, now: number): string {
  return secs === 0 ? 'until this session ends' : `until ${localTime(now + secs * 1000)}`;
}

/** A granted bypass's end: `until 18:47 (14:05 left)` or `until this session ends`. */
export function countdownText(expiresAt: number | null, now: number): string {
  return expiresAt === null
    ? 'until this session ends'
    : `until ${localTime(expiresAt)} (${remaining(expiresAt, now)})`;
}
