/** A bypass's countdown, pure (docs/ui.md): seconds left and their words. */
import type { BypassDto } from '../../../../shared/contract/approval';

/** Seconds left, rounded up; null = until the session ends. */
export function secondsLeft(b: Pick<BypassDto, 'expires_at'>, now: number): number | null {
  return b.expires_at === null ? null : Math.max(0, Math.ceil((b.expires_at - now) / 1000));
}

export function formatLeft(seconds: number | null): string {
  if (seconds === null) return 'until the session ends';
  if (seconds <= 0) return 'expired';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min left` : `${m}:${String(s).padStart(2, '0')} left`;
}
