/** Chooses the session's model: auto (first healthy by priority) or one configured model. */
import { useEffect, useState } from 'react';
import type { ModelView } from '../../../shared/contract/providers';
import { describeHealth } from '../../../shared/model-health';
import { useStore } from 'zustand';
import { skald } from '../bridge/skald';
import { sessionsStore } from '../stores/sessions-store';

export function ModelPicker({
  sessionId,
  current,
  onChanged,
}: {
  sessionId: number;
  current: string | null;
  onChanged: () => void;
}) {
  const [models, setModels] = useState<ModelView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const version = useStore(sessionsStore, (s) => s.modelsVersion);
  useEffect(() => {
    skald.models.list({}).then(
      (r) => setModels(r.models),
      (e: Error) => setError(e.message),
    );
  }, [sessionId, version]);
  return (
    <label className="model-picker">
      <span className="muted small">Model</span>
      <select
        data-testid="model-picker"
        value={current ?? 'auto'}
        onChange={(e) => {
          setError(null);
          skald.chat
            .setModel({ sessionId, model: e.target.value })
            .then(onChanged, (err: Error) => setError(err.message));
        }}
      >
        <option value="auto">auto</option>
        {models.map((m) => (
          <option key={m.id} value={m.modelId} disabled={!m.enabled}>
            {m.displayName || m.modelId} · {m.providerName}
            {m.health.state === 'failing' ? ` (${describeHealth(m.health)})` : ''}
          </option>
        ))}
      </select>
      {models.length === 0 && <span className="warn small">No model yet: add one in Settings.</span>}
      {error && <span className="error small">{error}</span>}
    </label>
  );
}
