/**
 * Settings → MCP (docs/mcp.md): the configured servers with their state, tools, last error and stderr;
 * enable/disable, restart, delete; trust a server the model registered (its full command is shown); re-approve a tool
 * whose description or schema changed, with the old and new side by side and any hidden-instruction markers flagged.
 * Below them the catalog of well-known servers (McpCatalog.tsx), then adding by hand and the `mcpServers` import
 * (McpAddServer.tsx).
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { McpServerView, McpToolView } from '../../../../shared/contract/mcp';
import { skald } from '../../bridge/skald';
import { mcp } from '../../stores/mcp-store';
import { useNow } from '../../lib/use-now';
import { AddServer, ImportJson } from './McpAddServer';
import { McpCatalog } from './McpCatalog';
import './mcp.css';

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** A server run through npx or uvx downloads its package on its first start: say so while it starts, with the time. */
function StartingNote({ server }: { server: McpServerView }) {
  const [since] = useState(() => Date.now());
  const now = useNow(true);
  const runner = (server.command ?? '')
    .split(/[\\/]/)
    .pop()
    ?.replace(/\.(cmd|exe)$/i, '');
  const pkg = server.args.find((a) => !a.startsWith('-'));
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  return (
    <div className="muted small" data-testid="mcp-starting" aria-live="polite">
      Starting… {seconds} s
      {(runner === 'npx' || runner === 'uvx') && pkg
        ? `. On its first start ${runner} downloads ${pkg}, which can take a minute.`
        : ''}
    </div>
  );
}

const STATE_CLASS: Record<McpServerView['state'], string> = {
  ready: 'badge-allow',
  starting: 'badge-require',
  failed: 'badge-deny',
  disabled: '',
  untrusted: 'badge-require',
  stopped: '',
};

function ToolRow({
  server,
  tool,
  onError,
}: {
  server: string;
  tool: McpToolView;
  onError: (m: string | null) => void;
}) {
  return (
    <li
      className={`mcp-tool ${tool.status === 'drifted' ? 'is-drifted' : ''}`}
      data-testid="mcp-tool"
      data-tool={tool.name}
    >
      <code>{tool.exposedName}</code>
      {tool.status === 'drifted' && <span className="badge badge-deny">changed — disabled</span>}
      <div className="mcp-tool-desc">{tool.description || <span className="muted">(no description)</span>}</div>
      {tool.warnings.length > 0 && (
        <div className="warn small" data-testid="mcp-tool-warning">
          Look closely: {tool.warnings.join('; ')}.
        </div>
      )}
      {tool.drift && (
        <div className="mcp-drift">
          <div>
            <span className="field-label">Trusted description</span>
            <pre>{tool.drift.description}</pre>
          </div>
          <div>
            <span className="field-label">New description</span>
            <pre>{tool.description}</pre>
          </div>
          {tool.drift.inputSchema !== tool.inputSchema && (
            <>
              <div>
                <span className="field-label">Trusted schema</span>
                <pre>{tool.drift.inputSchema}</pre>
              </div>
              <div>
                <span className="field-label">New schema</span>
                <pre>{tool.inputSchema}</pre>
              </div>
            </>
          )}
          <button
            className="primary"
            onClick={() => void mcp.act(() => skald.mcp.approveTool({ name: server, tool: tool.name })).then(onError)}
          >
            Re-approve this tool
          </button>
        </div>
      )}
    </li>
  );
}

function ServerRow({ server }: { server: McpServerView }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = (work: () => Promise<unknown>) => void mcp.act(work).then(setError);
  const target = server.transport === 'stdio' ? [server.command ?? '', ...server.args].join(' ') : (server.url ?? '');
  const drifted = server.tools.filter((t) => t.status === 'drifted').length;
  return (
    <div className="mcp-server" data-testid="mcp-server" data-name={server.name} data-state={server.state}>
      <div className="mcp-server-head">
        <button
          className="tool-chevron"
          aria-expanded={open}
          aria-label={`Details of ${server.name}`}
          onClick={() => setOpen(!open)}
        >
          {open ? '▾' : '▸'}
        </button>
        <strong>{server.name}</strong>
        <span className={`badge ${STATE_CLASS[server.state]}`} data-testid="mcp-state">
          {server.state}
        </span>
        <span className="muted small">
          {server.transport} · {count(server.tools.length, 'tool')}
          {drifted ? ` · ${drifted} changed` : ''}
        </span>
        <span className="header-spacer" />
        {server.state === 'untrusted' ? (
          <button className="primary" onClick={() => act(() => skald.mcp.trust({ name: server.name }))}>
            Trust and start
          </button>
        ) : (
          <label className="switch small">
            <input
              type="checkbox"
              checked={server.enabled}
              aria-label={`Enable ${server.name}`}
              onChange={(e) => act(() => skald.mcp.setEnabled({ name: server.name, enabled: e.target.checked }))}
            />{' '}
            enabled
          </label>
        )}
        {server.trusted && server.enabled && (
          <button onClick={() => act(() => skald.mcp.restart({ name: server.name }))}>Restart</button>
        )}
        <button
          className="ghost danger"
          aria-label={`Delete ${server.name}`}
          onClick={() => act(() => skald.mcp.delete({ name: server.name }))}
        >
          Delete
        </button>
      </div>
      <code className="mcp-command" data-testid="mcp-command">
        {target}
      </code>
      {server.state === 'starting' && <StartingNote server={server} />}
      {server.state === 'untrusted' && (
        <div className="warn small">
          Registered by the agent. It has not run. Check the full command above before you trust it.
        </div>
      )}
      {server.lastError && (
        <pre className="error mcp-error" data-testid="mcp-error">
          {server.lastError}
        </pre>
      )}
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
      {open && (
        <div className="mcp-details">
          {server.hasCredential && (
            <div className="muted small">
              Credential stored ({server.secretTarget?.kind} {server.secretTarget?.name}).
            </div>
          )}
          {server.exitReason && <div className="muted small">Process: {server.exitReason}</div>}
          {server.stderrTail && (
            <>
              <span className="field-label">stderr (last lines)</span>
              <pre className="mcp-stderr">{server.stderrTail.split('\n').slice(-30).join('\n')}</pre>
            </>
          )}
          <ul className="mcp-tools">
            {server.tools.map((t) => (
              <ToolRow key={t.exposedName} server={server.name} tool={t} onError={setError} />
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

export function McpSettings() {
  const state = useStore(mcp.store);
  const [importOpen, setImportOpen] = useState(false);
  useEffect(() => mcp.watch(), []);
  return (
    <section className="settings-section" data-testid="mcp-settings" aria-labelledby="mcp-title">
      <header className="section-head">
        <h2 id="mcp-title">MCP servers</h2>
        <span className="muted small">
          Programs that give the agent more tools. The agent sees a server's tools only after it activates that server,
          and every call asks you unless a rule or a bypass says otherwise.
        </span>
      </header>
      {state.error && <div className="error">{state.error}</div>}
      {state.loaded && state.servers.length === 0 && (
        <p className="muted empty">
          No MCP servers yet. Add one from the catalog below, by hand, or import them from another app.
        </p>
      )}
      {state.servers.map((s) => (
        <ServerRow key={s.name} server={s} />
      ))}
      <McpCatalog
        onImport={() => {
          setImportOpen(true);
          document.getElementById('mcp-import')?.scrollIntoView({ block: 'center' });
        }}
      />
      <p className="muted small mcp-add-title">Or add one by hand: the command that starts it, or its URL.</p>
      <AddServer />
      <ImportJson open={importOpen} onToggle={setImportOpen} />
    </section>
  );
}
