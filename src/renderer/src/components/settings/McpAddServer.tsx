/**
 * Settings → MCP, adding by hand (docs/mcp.md): a server by command or URL (a credential is write-only and lands in
 * the secret store), and the import of the `mcpServers` JSON other apps use. The catalog (McpCatalog.tsx) is the
 * one-click way; these are for everything else.
 */
import { useState } from 'react';
import { skald } from '../../bridge/skald';
import { mcp } from '../../stores/mcp-store';

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

/**
 * Add a server by hand. "Add server" stays disabled until what the kind needs is typed (a name, and a command or a URL;
 * a credential also needs where it goes), as Add model does: the core's own validation then speaks only about
 * what was typed wrong, never about an empty field.
 */
export function AddServer() {
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
  const missing = !d.name.trim()
    ? 'Give the server a name.'
    : d.mode === 'command' && !d.command.trim()
      ? 'Type the command that starts it.'
      : d.mode === 'url' && !d.url.trim()
        ? 'Type its URL.'
        : d.mode === 'command' && d.credential && !d.targetName.trim()
          ? 'Say which variable the credential goes in.'
          : '';
  const isFilled = missing === '';
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
      <button className="primary" type="submit" disabled={!isFilled} title={isFilled ? undefined : missing}>
        Add server
      </button>
      {!isFilled && (d.name || d.command || d.url || d.credential) && (
        <span className="muted small" data-testid="mcp-add-missing">
          {missing}
        </span>
      )}
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}

/** Claude Desktop's, Cursor's (and VS Code's) `mcpServers` JSON; the catalog's link opens it (`open`). */
export function ImportJson({ open, onToggle }: { open: boolean; onToggle: (open: boolean) => void }) {
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
    <details
      className="mcp-import"
      id="mcp-import"
      open={open}
      onToggle={(e) => onToggle((e.currentTarget as HTMLDetailsElement).open)}
    >
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
