/**
 * Settings → General (docs/ui.md): where new sessions start (the core checks the folder), the person's own
 * instructions to the model (docs/chat-ui.md "Your instructions"), the theme (system, light, dark; system follows the
 * OS live), and where the data folder and workspace are. How much diff history is kept has its own section
 * (components/rewind/CheckpointSettings.tsx).
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
