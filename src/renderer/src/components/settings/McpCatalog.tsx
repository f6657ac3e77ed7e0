/**
 * Settings → MCP → Catalog (docs/mcp.md "Catalog"): well-known servers, each with what it does, what runs, and what
 * it needs; "Add…" asks for that (a folder, a token) and adds it as the person's own server: trusted, started, its
 * tools listed above. A secret goes to the secret store (a password field; the core never puts it in the command
 * line). The entries are data in the app, so the list shows offline; what npx or uvx must download says so.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { McpCatalogEntryView } from '../../../../shared/contract/mcp';
import { skald } from '../../bridge/skald';
import { mcp } from '../../stores/mcp-store';

/** How the entry starts, in words: nothing to fetch, a first-start download, or a runner to install first. */
function howItRuns(entry: McpCatalogEntryView): { text: string; warn: boolean } {
  if (entry.local) return { text: 'Installed with Skald: starts without a download.', warn: false };
  if (!entry.runnerFound)
    return {
      text:
        entry.runner === 'uvx'
          ? 'A Python server run by uvx, which is not on this machine: install uv (docs.astral.sh/uv) first.'
          : 'Needs npx (it comes with Node.js), which is not on this machine.',
      warn: true,
    };
  return entry.runner === 'uvx'
    ? { text: 'A Python server: uvx downloads it on its first start.', warn: false }
    : { text: 'npx downloads it on its first start (needs the internet once).', warn: false };
}

function AddForm({ entry, onDone }: { entry: McpCatalogEntryView; onDone: () => void }) {
  const [name, setName] = useState(entry.configured ? `${entry.id}-2` : entry.id);
  const [params, setParams] = useState(() => Object.fromEntries(entry.params.map((p) => [p.key, p.default])));
  const [credential, setCredential] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const missing = !name.trim()
    ? 'Give the server a name.'
    : (entry.params.find((p) => !p.optional && !params[p.key]?.trim())?.label ??
      (entry.secret && !entry.secret.optional && !credential.trim() ? entry.secret.label : null));
  const add = () => {
    setBusy(true);
    void mcp
      .act(() =>
        skald.mcp.addFromCatalog({
          id: entry.id,
          name: name.trim(),
          params,
          ...(credential.trim() ? { credential: credential.trim() } : {}),
        }),
      )
      .then((e) => {
        setBusy(false);
        setError(e);
        if (!e) onDone();
      });
  };
  return (
    <form
      className="mcp-catalog-form"
      data-testid="mcp-catalog-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!missing) add();
      }}
    >
      <label className="field">
        <span className="field-label">Server name</span>
        <input value={name} onChange={(e) => setName(e.target.value)} data-testid="mcp-catalog-name" />
      </label>
      {entry.params.map((p) => (
        <label className="field" key={p.key}>
          <span className="field-label">{p.label}</span>
          <input
            value={params[p.key] ?? ''}
            placeholder={p.placeholder}
            onChange={(e) => setParams({ ...params, [p.key]: e.target.value })}
          />
        </label>
      ))}
      {entry.secret && (
        <label className="field">
          <span className="field-label">{entry.secret.label}</span>
          <input
            type="password"
            autoComplete="off"
            value={credential}
            onChange={(e) => setCredential(e.target.value)}
            data-testid="mcp-catalog-secret"
          />
          <span className="muted small">
            {entry.secret.help}. Stored encrypted in the secret store and given to the server as{' '}
            <code>{entry.secret.env}</code>; never shown again, never in its command line.
          </span>
        </label>
      )}
      <div className="mcp-catalog-actions">
        <button className="primary" type="submit" disabled={missing !== null || busy} data-testid="mcp-catalog-add">
          Add and start
        </button>
        <button type="button" className="ghost" onClick={onDone}>
          Cancel
        </button>
        {missing && (name || credential) && <span className="muted small">Still needed: {missing}</span>}
      </div>
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}

function CatalogEntry({ entry }: { entry: McpCatalogEntryView }) {
  const [adding, setAdding] = useState(false);
  const how = howItRuns(entry);
  return (
    <li className="mcp-catalog-entry" data-testid="mcp-catalog-entry" data-id={entry.id}>
      <div className="mcp-catalog-head">
        <strong>{entry.title}</strong>
        {entry.configured && <span className="badge badge-allow">added</span>}
        <span className="header-spacer" />
        {!adding && (
          <button onClick={() => setAdding(true)} aria-label={`Add ${entry.title}`}>
            {entry.configured ? 'Add another…' : 'Add…'}
          </button>
        )}
      </div>
      <div className="mcp-catalog-desc">{entry.description}</div>
      <code className="mcp-command">{entry.commandLine}</code>
      <div className={`small ${how.warn ? 'warn' : 'muted'}`}>
        {how.text}
        {entry.secret && !entry.secret.optional ? ` Needs: ${entry.secret.label}.` : ''}
        {entry.note ? ` ${entry.note}` : ''}{' '}
        <a href={entry.homepage} target="_blank" rel="noreferrer noopener">
          About it
        </a>
      </div>
      {adding && <AddForm entry={entry} onDone={() => setAdding(false)} />}
    </li>
  );
}

export function McpCatalog({ onImport }: { onImport: () => void }) {
  const [entries, setEntries] = useState<McpCatalogEntryView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Read again when the configured servers change: an entry says whether a server of its name is there.
  const names = useStore(mcp.store, (s) => s.servers.map((x) => x.name).join('\n'));
  const loaded = useStore(mcp.store, (s) => s.loaded);
  useEffect(() => {
    skald.mcp.catalog({}).then(
      (r) => (setEntries(r.entries), setError(null)),
      (e: Error) => setError(e.message),
    );
  }, [names]);
  if (!loaded) return null;
  return (
    // Open while no server is configured: then it is what a newcomer needs first.
    <details className="mcp-catalog" data-testid="mcp-catalog" open={names === ''}>
      <summary>Catalog: well-known servers, one click to add</summary>
      <p className="muted small">
        Coming from Claude Desktop or Cursor?{' '}
        <a
          href="#mcp-import"
          onClick={(e) => {
            e.preventDefault();
            onImport();
          }}
        >
          Import their mcpServers JSON
        </a>{' '}
        instead.
      </p>
      {error && <div className="error">{error}</div>}
      {entries === null && !error && <p className="muted small">Reading the catalog…</p>}
      <ul className="mcp-catalog-list">
        {entries?.map((entry) => (
          <CatalogEntry key={entry.id} entry={entry} />
        ))}
      </ul>
    </details>
  );
}
