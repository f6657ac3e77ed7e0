/**
 * Settings → Plugins (docs/plugins.md): each plugin this build ships, its state (enabled, ready, or what is
 * missing), a form from its config schema, and an enable switch. Every change goes through `plugins:*`, which
 * validates it; a refusal is shown under the plugin and nothing is saved.
 */
import { useEffect, useState } from 'react';
import type { PluginViewShape } from '../../../../shared/contract/plugins';
import { skald } from '../../bridge/skald';
import { SchemaForm } from './SchemaForm';

export function PluginsSettings() {
  const [plugins, setPlugins] = useState<PluginViewShape[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const reload = () => skald.plugins.list({}).then((r) => setPlugins(r.plugins));
  useEffect(() => void reload().catch(() => undefined), []);
  const act = (name: string, work: () => Promise<unknown>) => {
    setErrors((e) => ({ ...e, [name]: '' }));
    work().then(reload, (e: Error) => {
      setErrors((all) => ({ ...all, [name]: e.message }));
      return reload();
    });
  };

  return (
    <section className="settings-section" data-testid="plugins-settings" aria-labelledby="plugins-title">
      <header className="section-head">
        <h2 id="plugins-title">Plugins</h2>
        <span className="muted small">
          Plugins add abilities the agent can use once they are enabled, such as image generation.
        </span>
      </header>
      {plugins.map((p) => (
        <details key={p.name} className="plugin-card" data-testid={`plugin-${p.name}`}>
          <summary>
            <strong>{p.title}</strong> <span className="muted">{p.name}</span>{' '}
            <span className={p.enabled ? (p.isReady ? 'badge ok' : 'badge warn') : 'badge'}>
              {p.enabled ? (p.isReady ? 'enabled' : 'enabled, incomplete') : 'disabled'}
            </span>
          </summary>
          <p className="muted">{p.description}</p>
          {p.problem && <p className="warn">Needs: {p.problem}</p>}
          <label className="switch">
            <input
              type="checkbox"
              checked={p.enabled}
              onChange={(e) => {
                const enabled = e.target.checked;
                // Shown at once; the reload after the call puts back the core's answer (or the old state on a refusal).
                setPlugins((all) => all.map((x) => (x.name === p.name ? { ...x, enabled } : x)));
                act(p.name, () => skald.plugins.setEnabled({ name: p.name, enabled }));
              }}
            />{' '}
            Enabled
          </label>
          <SchemaForm
            schema={p.schema}
            values={p.config}
            secretFields={p.secretFields}
            idPrefix={`plugin-${p.name}`}
            onSave={(patch) => act(p.name, () => skald.plugins.configure({ name: p.name, config: patch }))}
          />
          {errors[p.name] && (
            <div className="error" role="alert">
              {errors[p.name]}
            </div>
          )}
        </details>
      ))}
    </section>
  );
}
