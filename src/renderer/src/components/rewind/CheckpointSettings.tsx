/**
 * Settings → Checkpoints (docs/rewind.md "Blob store limits"): the before/after copies of the files tools write, which
 * Diff, Revert and Rewind restore from, cost nothing until used but are kept within a size and an age chosen here
 * (kept by the app settings' one writer, `app:setSettings` `diffHistory`). What the entered limits would drop is
 * shown before they are saved.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { StoreUsage } from '../../../../shared/contract/rewind';
import { skald } from '../../bridge/skald';
import { setAppSettings, settingsStore } from '../../stores/settings-store';

const mbOf = (bytes: number) => (bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0);

/** The store's size, and what the limits in the boxes would drop at the next start (asked 200 ms after typing). */
function DropsLine({ days, mb }: { days: string; mb: string }) {
  const [usage, setUsage] = useState<StoreUsage | null>(null);
  useEffect(() => {
    const keepDays = Number(days);
    const maxMb = Number(mb);
    if (!Number.isInteger(keepDays) || !Number.isInteger(maxMb) || keepDays < 1 || maxMb < 1) return;
    const timer = setTimeout(
      () => skald.rewind.storeUsage({ keepDays, maxMb }).then(setUsage, () => setUsage(null)),
      200,
    );
    return () => clearTimeout(timer);
  }, [days, mb]);
  if (!usage) return null;
  const { drops } = usage;
  return (
    <span className="small checkpoint-drops" data-testid="checkpoint-drops" role="status">
      Now {mbOf(usage.usedBytes)} MB in {usage.images} {usage.images === 1 ? 'copy pair' : 'copy pairs'}.{' '}
      {drops.images === 0
        ? 'These limits drop nothing.'
        : `These limits drop the oldest ${drops.images} (${mbOf(drops.bytes)} MB) at the next start, up to those of ${new Date(
            drops.newestDroppedAt!,
          ).toLocaleString()}: messages before then can no longer be rewound.`}
    </span>
  );
}

export function CheckpointSettings() {
  return (
    <section
      className="settings-section"
      id="settings-checkpoints"
      aria-labelledby="checkpoints-title"
      data-testid="checkpoint-settings"
    >
      <header className="section-head">
        <h2 id="checkpoints-title">Checkpoints</h2>
      </header>
      <DiffHistoryRow />
    </section>
  );
}

/** How long and how much is kept, with what those limits would drop. */
function DiffHistoryRow() {
  const saved = useStore(settingsStore, (s) => s.app?.diffHistory);
  const [days, setDays] = useState('');
  const [mb, setMb] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!saved) return;
    setDays(String(saved.keepDays));
    setMb(String(saved.maxMb));
  }, [saved]);
  const changed = saved !== undefined && (days !== String(saved.keepDays) || mb !== String(saved.maxMb));
  const save = async () => {
    const message = await setAppSettings({ diffHistory: { keepDays: Number(days), maxMb: Number(mb) } });
    setError(message && 'Keep 1–3650 days and at least 16 MB, in whole numbers.');
    setDone(!message);
  };
  return (
    <div className="setting-row">
      <div className="setting-text">
        <strong>Diff and rewind history</strong>
        <span className="muted small">
          Before/after copies of the files tools write, for Diff, Revert and Rewind. Older or over-size history is
          pruned when the app starts; a message whose copies are gone can no longer be rewound.
        </span>
        <DropsLine days={days} mb={mb} />
      </div>
      <form
        className="setting-control"
        noValidate
        onSubmit={(e) => (e.preventDefault(), void save())}
        data-testid="diff-history"
      >
        <label className="small">
          Keep{' '}
          <input
            type="number"
            min={1}
            max={3650}
            step={1}
            className="num-input"
            aria-label="Days of diff history"
            data-testid="diff-history-days"
            value={days}
            onChange={(e) => (setDays(e.target.value), setDone(false))}
          />{' '}
          days
        </label>
        <label className="small">
          up to{' '}
          <input
            type="number"
            min={16}
            step={1}
            className="num-input"
            aria-label="Megabytes of diff history"
            data-testid="diff-history-mb"
            value={mb}
            onChange={(e) => (setMb(e.target.value), setDone(false))}
          />{' '}
          MB
        </label>
        <button type="submit" data-testid="save-diff-history" disabled={!changed}>
          Save
        </button>
        {done && (
          <span className="ok-text small" role="status">
            Saved
          </span>
        )}
        {error && (
          <div className="field-error" role="alert">
            {error}
          </div>
        )}
      </form>
    </div>
  );
}
