/** The app shell: header with the shape and workspace, and the main area. */
import { useEffect, useState } from 'react';
import { skald } from './bridge/skald';

type Info = Awaited<ReturnType<typeof skald.app.info>>;

export function App() {
  const [info, setInfo] = useState<Info | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    skald.app.info({}).then(setInfo, (e: Error) => setError(e.message));
  }, []);

  return (
    <div className="app">
      <header className="app-header">
        <span className="brand">Skald</span>
        {info && (
          <span className="muted" data-testid="app-info">
            {info.shape} · v{info.version} · workspace {info.workspaceDir}
          </span>
        )}
        {error && <span className="error">{error}</span>}
      </header>
      <main className="app-main" />
    </div>
  );
}
