/**
 * Settings → General (docs/ui.md): where new sessions start (the core checks the folder), the person's own
 * instructions to the model (docs/chat-ui.md "Your instructions"), the theme (system, light, dark; system follows the
 * OS live), how much diff history the viewer keeps (docs/viewer.md "Diff and revert"), and where the data folder and
 * workspace are.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { MAX_INSTRUCTIONS_CHARS } from '../../../../shared/contract/app';
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
    <section
      className="settings-section"
      id="settings-general"
      aria-labelledby="general-title"
      data-testid="general-settings"
    >
      <header className="section-head">
        <h2 id="general-title">General</h2>
      </header>
      <div className="setting-row">
        <div className="setting-text">
          <strong>Default working directory</strong>
          <span className="muted small">
            Where a new session starts; relative paths resolve here. Empty: the workspace ({workspaceDir}).
          </span>
        </div>
        <form className="setting-control" onSubmit={(e) => (e.preventDefault(), void saveDir())}>
          <input
            data-testid="default-workdir"
            className="mono"
            aria-label="Default working directory"
            placeholder={workspaceDir}
            value={dir}
            onChange={(e) => (setDir(e.target.value), setSaved(false))}
            aria-invalid={error !== null}
          />
          <button type="submit" data-testid="save-workdir" disabled={dir === (app?.defaultWorkingDirectory ?? '')}>
            Save
          </button>
          {saved && (
            <span className="ok-text small" role="status">
              Saved
            </span>
          )}
          {error && (
            <div className="field-error" role="alert" data-testid="workdir-error">
              {error}
            </div>
          )}
        </form>
      </div>
      <InstructionsRow />
      <div className="setting-row">
        <div className="setting-text">
          <strong>Theme</strong>
          <span className="muted small">System follows your computer&apos;s light or dark mode.</span>
        </div>
        <div className="setting-control radio-row" role="radiogroup" aria-label="Theme">
          {THEMES.map((t) => (
            <label key={t.value} className={`radio-choice${app?.theme === t.value ? ' is-on' : ''}`}>
              <input
                type="radio"
                name="theme"
                data-testid={`theme-${t.value}`}
                checked={app?.theme === t.value}
                onChange={() => void setAppSettings({ theme: t.value })}
              />
              {t.label}
            </label>
          ))}
        </div>
      </div>
      <DiffHistoryRow />
      <div className="setting-row">
        <div className="setting-text">
          <strong>Data folder</strong>
          <span className="muted small">
            Chats, rules, settings and encrypted keys live here. No tool may write into it.
          </span>
        </div>
        <div className="setting-control">
          <code className="path-box" data-testid="data-dir">
            {dataDir}
          </code>
          <button
            className="ghost"
            onClick={() => void navigator.clipboard?.writeText(dataDir)}
            aria-label="Copy the data folder's path"
          >
            Copy
          </button>
        </div>
      </div>
    </section>
  );
}

/** The person's standing instructions: given to every chat's agent at the start of its system message. */
function InstructionsRow() {
  const saved = useStore(settingsStore, (s) => s.app?.instructions ?? '');
  const [text, setText] = useState(saved);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  useEffect(() => setText(saved), [saved]);
  const save = async () => {
    const message = await setAppSettings({ instructions: text.trim() });
    setError(message);
    setDone(!message);
  };
  return (
    <div className="setting-row">
      <div className="setting-text">
        <strong>Your instructions</strong>
        <span className="muted small">
          Given to the agent in every chat, from its next answer: how you like answers, what you work on. Sub-agents
          work from the agent&apos;s brief instead.
        </span>
      </div>
      <form className="setting-control instructions-control" onSubmit={(e) => (e.preventDefault(), void save())}>
        <textarea
          data-testid="instructions"
          aria-label="Your instructions"
          rows={4}
          maxLength={MAX_INSTRUCTIONS_CHARS}
          placeholder="e.g. Answer briefly. I work in TypeScript on Linux."
          value={text}
          onChange={(e) => (setText(e.target.value), setDone(false))}
        />
        <div className="instructions-actions">
          <span className="muted small">
            {text.length.toLocaleString('en')} / {MAX_INSTRUCTIONS_CHARS.toLocaleString('en')}
          </span>
          {done && (
            <span className="ok-text small" role="status">
              Saved
            </span>
          )}
          <button type="submit" data-testid="save-instructions" disabled={text.trim() === saved}>
            Save
          </button>
        </div>
        {error && (
          <div className="field-error" role="alert">
            {error}
          </div>
        )}
      </form>
    </div>
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
        <span className="muted small">
          Before/after copies of the files tools write, for Diff and Revert. Older or over-size history is pruned when
          the app starts.
        </span>
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
