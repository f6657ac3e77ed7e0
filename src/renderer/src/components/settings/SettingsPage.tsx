/**
 * Settings (docs/ui.md), one page with a section list on the left: General, Providers, Models, MCP servers,
 * Plugins, Secrets.
 * Opens with Ctrl/Cmd+, ; Close (or Esc) goes back to the chat.
 */
import { useEffect } from 'react';
import { loadSettings } from '../../stores/settings-store';
import { GeneralSettings } from './GeneralSettings';
import { CheckpointSettings } from '../rewind/CheckpointSettings';
import { McpSettings } from './McpSettings';
import { ModelsSettings } from './ModelsSettings';
import { PluginsSettings } from './PluginsSettings';
import { ProvidersSettings } from './ProvidersSettings';
import { SecretsSettings } from './SecretsSettings';
import './settings.css';

const SECTIONS = [
  { id: 'settings-general', label: 'General' },
  { id: 'settings-checkpoints', label: 'Checkpoints' },
  { id: 'settings-providers', label: 'Providers' },
  { id: 'settings-models', label: 'Models' },
  { id: 'settings-mcp', label: 'MCP servers' },
  { id: 'settings-plugins', label: 'Plugins' },
  { id: 'settings-secrets', label: 'Secrets' },
];

/**
 * Scrolls to a section and gives it the focus, so the next Tab goes on from there (a keyboard user lands where
 * they asked); smoothly unless the person asked for less motion.
 */
function goToSection(id: string): void {
  const section = document.getElementById(id);
  if (!section) return;
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  section.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
  if (!section.hasAttribute('tabindex')) section.tabIndex = -1;
  section.focus({ preventScroll: true });
}

export function SettingsPage({ onClose }: { onClose: () => void }) {
  useEffect(() => void loadSettings(), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Esc in a text field belongs to the field; on a button, switch or radio it closes Settings.
      const t = e.target;
      const typing =
        t instanceof HTMLTextAreaElement ||
        (t instanceof HTMLInputElement && !['radio', 'checkbox', 'button', 'submit'].includes(t.type));
      if (e.key === 'Escape' && !e.defaultPrevented && !typing) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="settings-page" data-testid="settings">
      <nav className="settings-nav" aria-label="Settings sections">
        <div className="settings-nav-title" aria-hidden="true">
          Settings
        </div>
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} onClick={(e) => (e.preventDefault(), goToSection(s.id))}>
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-main">
        <header className="page-head settings-head">
          <h1>Settings</h1>
          <button onClick={onClose} data-testid="close-settings">
            Close
          </button>
        </header>
        <GeneralSettings />
        <CheckpointSettings />
        <ProvidersSettings />
        <ModelsSettings />
        <div id="settings-mcp">
          <McpSettings />
        </div>
        <div id="settings-plugins">
          <PluginsSettings />
        </div>
        <div id="settings-secrets">
          <SecretsSettings />
        </div>
      </div>
    </div>
  );
}
