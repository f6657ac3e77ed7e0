/**
 * Settings → MCP (docs/mcp.md): the configured servers with their state, tools, last error and stderr; add one by
 * command or URL (a credential is write-only and lands in the secret store); import the `mcpServers` JSON other
 * apps use; enable/disable, restart, delete; trust a server the model registered (its full command is shown);
 * re-approve a tool whose description or schema changed, with the old and new side by side and any
 * hidden-instruction markers flagged.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { McpServerView, McpToolView } from '../../../../shared/contract/mcp';
import { skald } from '../../bridge/skald';
import { mcp } from '../../stores/mcp-store';
import './mcp.css';

/** Splits an argument line on spaces, keeping "quoted parts" together. */
export function splitArgs(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

function parseEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1);
  }
  return out;
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
          {server.transport} · {server.tools.length} tools{drifted ? ` · ${drifted} changed` : ''}
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

function AddServer() {
  const empty = {
    mode: 'command' as 'command' | 'url',
    name: '',
    command: '',
    args: '',
    env: '',
    url: '',
    transport: 'http' as 'http' | 'sse',
    targetName: '',
    credential: '',
  };
  const [d, setD] = useState(empty);
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const credential = d.credential
      ? {
          credential: d.credential,
          secretTarget:
            d.mode === 'command'
              ? { kind: 'env' as const, name: d.targetName }
              : {
                  kind: 'header' as const,
                  name: d.targetName || 'Authorization',
                  prefix: d.targetName ? undefined : 'Bearer ',
                },
        }
      : {};
    const input =
      d.mode === 'command'
        ? {
            name: d.name,
            transport: 'stdio' as const,
            command: d.command,
            args: splitArgs(d.args),
            env: parseEnv(d.env),
            ...credential,
          }
        : { name: d.name, transport: d.transport, url: d.url, ...credential };
    void mcp
      .act(() => skald.mcp.save(input))
      .then((e) => {
        setError(e);
        if (!e) setD(empty);
      });
  };
  return (
    <form
      className="settings-form mcp-add"
      data-testid="mcp-add"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <select
        aria-label="Kind of server"
        value={d.mode}
        onChange={(e) => setD({ ...d, mode: e.target.value as 'command' | 'url' })}
      >
        <option value="command">Command (stdio)</option>
        <option value="url">URL (HTTP)</option>
      </select>
      <input
        aria-label="Server name"
        placeholder="Name, e.g. github"
        value={d.name}
        onChange={(e) => setD({ ...d, name: e.target.value })}
      />
      {d.mode === 'command' ? (
        <>
          <input
            aria-label="Command"
            placeholder="Command, e.g. npx"
            value={d.command}
            onChange={(e) => setD({ ...d, command: e.target.value })}
          />
          <input
            aria-label="Arguments"
            placeholder="Arguments, e.g. -y @modelcontextprotocol/server-memory"
            value={d.args}
            onChange={(e) => setD({ ...d, args: e.target.value })}
          />
          <textarea
            aria-label="Environment"
            placeholder="Environment, one KEY=value per line"
            rows={2}
            value={d.env}
            onChange={(e) => setD({ ...d, env: e.target.value })}
          />
        </>
      ) : (
        <>
          <input
            aria-label="URL"
            placeholder="https://example.com/mcp"
            value={d.url}
            onChange={(e) => setD({ ...d, url: e.target.value })}
          />
          <select
            aria-label="HTTP transport"
            value={d.transport}
            onChange={(e) => setD({ ...d, transport: e.target.value as 'http' | 'sse' })}
          >
            <option value="http">Streamable HTTP (falls back to SSE)</option>
            <option value="sse">Legacy SSE</option>
          </select>
        </>
      )}
      <input
        aria-label="Credential goes to"
        placeholder={
          d.mode === 'command'
            ? 'Credential variable, e.g. GITHUB_TOKEN'
            : 'Credential header (default Authorization: Bearer)'
        }
        value={d.targetName}
        onChange={(e) => setD({ ...d, targetName: e.target.value })}
      />
      <input
        aria-label="Credential"
        type="password"
        autoComplete="off"
        placeholder="Credential (optional, stored encrypted)"
        value={d.credential}
        onChange={(e) => setD({ ...d, credential: e.target.value })}
      />
      <button className="primary" type="submit">
        Add server
      </button>
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}

function ImportJson() {
  const [json, setJson] = useState('');
  const [report, setReport] = useState<string | null>(null);
  const run = () =>
    skald.mcp.import({ json }).then(
      (r) => {
        setReport(
          [
            r.added.length ? `Added: ${r.added.join(', ')}.` : 'Nothing added.',
            ...r.problems.map((p) => `${p.name}: ${p.message}`),
          ].join('\n'),
        );
        if (r.added.length) setJson('');
        void mcp.refresh();
      },
      (e: Error) => setReport(e.message),
    );
  return (
    <details className="mcp-import">
      <summary>Import from another app (mcpServers JSON)</summary>
      <textarea
        aria-label="mcpServers JSON"
        rows={6}
        spellCheck={false}
        placeholder='{"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}'
        value={json}
        onChange={(e) => setJson(e.target.value)}
      />
      <button disabled={json.trim().length < 2} onClick={() => void run()}>
        Import
      </button>
      {report && (
        <pre className="muted small" data-testid="mcp-import-report">
          {report}
        </pre>
      )}
    </details>
  );
}

export function McpSettings() {
  const state = useStore(mcp.store);
  useEffect(() => mcp.watch(), []);
  return (
    <section className="settings-section" data-testid="mcp-settings" aria-labelledby="mcp-title">
      <header className="section-head">
        <h3 id="mcp-title">MCP servers</h3>
        <span className="muted small">
          Programs that give the agent more tools. The agent sees a server's tools only after it activates that server,
          and every call asks you unless a rule or a bypass says otherwise.
        </span>
      </header>
      {state.error && <div className="error">{state.error}</div>}
      {state.loaded && state.servers.length === 0 && (
        <p className="muted empty">No MCP servers yet. Add one below, or import them from another app.</p>
      )}
      {state.servers.map((s) => (
        <ServerRow key={s.name} server={s} />
      ))}
      <AddServer />
      <ImportJson />
    </section>
  );
}
