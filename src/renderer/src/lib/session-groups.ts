/**
 * The chat list under headings, as the session list shows it (docs/chat-ui.md "Sessions"): the pinned chats first
 * (newest pin first), then the others by date: Today, Yesterday, Previous 7 days, Previous 30 days, then each earlier
 * month ("March 2026"). The sessions come newest first (by their last activity); a heading is a row of its own, so the
 * virtualized list lays out headings and chats alike.
 */
export type ListEntry<S> = { kind: 'heading'; label: string } | { kind: 'session'; session: S };

/** The start of the local calendar day `days` before the one `now` is in (a clock change makes a day 23 or 25 hours). */
function dayStart(now: number, days: number): number {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  day.setDate(day.getDate() - days);
  return day.getTime();
}

/**
 * The heading of any time, seen at `now`: the day boundaries computed once, so a list of thousands of chats costs a
 * comparison each (and a month's name once per month).
 */
export function headingsAt(now: number): (time: number) => string {
  const [today, yesterday, week, month] = [dayStart(now, 0), dayStart(now, 1), dayStart(now, 7), dayStart(now, 30)];
  const months = new Map<number, string>();
  return (time) => {
    if (time >= today) return 'Today';
    if (time >= yesterday) return 'Yesterday';
    if (time >= week) return 'Previous 7 days';
    if (time >= month) return 'Previous 30 days';
    const date = new Date(time);
    const key = date.getFullYear() * 12 + date.getMonth();
    let label = months.get(key);
    if (label === undefined)
      months.set(key, (label = date.toLocaleDateString('en-US', { month: 'long', year: 'numeric' })));
    return label;
  };
}

export const headingOf = (time: number, now: number): string => headingsAt(now)(time);

export function withHeadings<S extends { updated_at: number; pinned_at?: number | null }>(
  sessions: readonly S[],
  now: number,
): ListEntry<S>[] {
  const headingOfTime = headingsAt(now);
  const entries: ListEntry<S>[] = [];
  const pinned = sessions.filter((s) => s.pinned_at != null).sort((a, b) => b.pinned_at! - a.pinned_at!);
  if (pinned.length)
    entries.push(
      { kind: 'heading', label: 'Pinned' },
      ...pinned.map((session) => ({ kind: 'session' as const, session })),
    );
  let last = '';
  for (const session of sessions) {
    if (session.pinned_at != null) continue;
    const label = headingOfTime(session.updated_at);
    if (label !== last) entries.push({ kind: 'heading', label });
    last = label;
    entries.push({ kind: 'session', session });
  }
  return entries;
}
