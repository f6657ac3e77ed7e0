/**
 * Settings → General (docs/ui.md): where new sessions start (the core checks the folder), the theme (system,
 * light, dark; system follows the OS live), how much diff history the viewer keeps (docs/viewer.md "Diff and
 * revert"), and where the data folder and workspace are.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { ThemeChoice } from '../../stores/theme';
import { setAppSettings, settingsStore } from '../../stores/settings-store';

const THEMES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function GeneralSettings() {
  const { app, dataDir, workspaceDir } = useStore(settingsStore);
  const [dir, setDir] = useState(app?.defaultWorkingDirectory ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => setDir(app?.defaultWorkingDirectory ?? ''), [app?.defaultWorkingDirectory]);
  const saveDir = async () => {
    const message = await setAppSettings({ defaultWorkingDirectory: dir.trim() ? dir.trim() : null });
    setError(message);
    setSaved(!message);
  };
  return (
    <section className="settings-section" id="settings-general" aria-labelledby="general-title" data-testid="general-settings">
      <header className="section-head"><h3 id="general-title">General</h3></header>
      <div className="setting-row">
        <div className="setting-text">
          <strong>Default working directory</strong>
          <span className="muted small">Where a new session starts; relative paths resolve here. Empty: the workspace ({workspaceDir}).</span>
        </div>
        <form className="setting-control" onSubmit={(e) => (e.preventDefault(), void saveDir())}>
          <input data-testid="default-workdir" className="mono" aria-label="Default working directory" placeholder={workspaceDir} value={dir} onChange={(e) => (setDir(e.target.value), setSaved(false))} aria-invalid={error !== null} />
          <button type="submit" data-testid="save-workdir" disabled={dir === (app?.defaultWorkingDirectory ?? '')}>Save</button>
          {saved && <span className="ok-text small" role="status">Saved</span>}
          {error && <div className="field-error" role="alert" data-testid="workdir-error">{error}</div>}
        </form>
      </div>
      <div className="setting-row">
        <div className="setting-text">
          <strong>Theme</strong>
          <span className="muted small">System follows your computer&apos;s light or dark mode.</span>
        </div>
        <div className="setting-control radio-row" role="radiogroup" aria-label="Theme">
          {THEMES.map((t) => (
            <label key={t.value} className={`radio-choice${app?.theme === t.value ? ' is-on' : ''}`}>
              <input type="radio" name="theme" data-testid={`theme-${t.value}`} checked={app?.theme === t.value} onChange={() => void setAppSettings({ theme: t.value })} />
              {t.label}
            </label>
          ))}
        </div>
      </div>
      <DiffHistoryRow />
      <div className="setting-row">
        <div className="setting-text">
          <strong>Data folder</strong>
          <span className="muted small">Chats, rules, settings and encrypted keys live here. No tool may write into it.</span>
        </div>
        <div className="setting-control">
          <code className="path-box" data-testid="data-dir">{dataDir}</code>
          <button className="ghost" onClick={() => void navigator.clipboard?.writeText(dataDir)} aria-label="Copy the data folder's path">Copy</button>
        </div>
      </div>
    </section>
  );
}

/** The viewer's before/after images behind Diff and Revert: how long and how much they are kept. */
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
        <strong>Diff history</strong>
        <span className="muted small">Before/after copies of the files tools write, for Diff and Revert. Older or over-size history is pruned when the app starts.</span>
      </div>
      <form className="setting-control" noValidate onSubmit={(e) => (e.preventDefault(), void save())} data-testid="diff-history">
        <label className="small">
          Keep <input type="number" min={1} max={3650} step={1} className="num-input" aria-label="Days of diff history" data-testid="diff-history-days" value={days} onChange={(e) => (setDays(e.target.value), setDone(false))} /> days
        </label>
        <label className="small">
          up to <input type="number" min={16} step={1} className="num-input" aria-label="Megabytes of diff history" data-testid="diff-history-mb" value={mb} onChange={(e) => (setMb(e.target.value), setDone(false))} /> MB
        </label>
        <button type="submit" data-testid="save-diff-history" disabled={!changed}>Save</button>
        {done && <span className="ok-text small" role="status">Saved</span>}
        {error && <div className="field-error" role="alert">{error}</div>}
      </form>
    </div>
  );
}
