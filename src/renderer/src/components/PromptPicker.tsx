/**
 * The message box's prompts button (docs/mcp.md "Prompts"): the prompts the connected MCP servers offer, read when it
 * opens (`mcp:prompts`); a pick with arguments asks for them first; the filled-in prompt (`mcp:getPrompt`) goes into
 * the box as text, where the person reads and edits it before sending. Esc or a click outside closes it.
 */
import { useEffect, useRef, useState } from 'react';
import type { McpPromptView } from '../../../shared/contract/mcp';
import { skald } from '../bridge/skald';

function PromptIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.4" aria-hidden="true">
      <path d="M3 2.5h7.5l2.5 2.5v8.5H3z" />
      <path d="M5.5 7h5M5.5 9.5h5M5.5 12h3" />
    </svg>
  );
}

const errorText = (e: unknown) => (e as Error).message.replace(/^\[\w+\] /, '');

function ArgumentsForm({ prompt, onInsert, onBack }: { prompt: McpPromptView; onInsert: (args: Record<string, string>) => void; onBack: () => void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <form
      className="prompt-form"
      data-testid="prompt-form"
      onSubmit={(e) => {
        e.preventDefault();
        onInsert(values);
      }}
    >
      <div className="prompt-form-head">
        <strong>{prompt.title}</strong> <span className="muted small">{prompt.server}</span>
      </div>
      {prompt.arguments.map((a, i) => (
        <label key={a.name} className="prompt-arg">
          <span className="small">
            {a.name}
            {a.required ? ' *' : ''} {a.description && <span className="muted">— {a.description}</span>}
          </span>
          <input autoFocus={i === 0} required={a.required} data-testid={`prompt-arg-${a.name}`} value={values[a.name] ?? ''} onChange={(e) => setValues({ ...values, [a.name]: e.target.value })} />
        </label>
      ))}
      <div className="prompt-form-actions">
        <button type="button" onClick={onBack}>Back</button>
        <button type="submit" className="primary" data-testid="prompt-insert">Insert</button>
      </div>
    </form>
  );
}

export function PromptPicker({ onText }: { onText: (text: string) => void }) {
  const [open, setOpen] = useState(false);
  const [prompts, setPrompts] = useState<McpPromptView[] | null>(null);
  const [picked, setPicked] = useState<McpPromptView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    let live = true;
    setPrompts(null);
    skald.mcp.prompts({}).then((r) => live && setPrompts(r.prompts), (e) => live && (setPrompts([]), setError(errorText(e))));
    const outside = (e: MouseEvent) => !root.current?.contains(e.target as Node) && close();
    document.addEventListener('mousedown', outside);
    return () => {
      live = false;
      document.removeEventListener('mousedown', outside);
    };
  }, [open]);
  const close = () => {
    setOpen(false);
    setPicked(null);
    setError(null);
  };
  const insert = (prompt: McpPromptView, args: Record<string, string>) => {
    setError(null);
    skald.mcp.getPrompt({ server: prompt.server, name: prompt.name, arguments: args }).then(
      ({ text }) => {
        onText(text);
        close();
      },
      (e) => setError(errorText(e)),
    );
  };
  return (
    <div className="prompt-picker" ref={root} onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), close())}>
      <button className="icon-button" data-testid="prompts" title="Insert a prompt from an MCP server" aria-label="Insert a prompt" aria-expanded={open} onClick={() => (open ? close() : setOpen(true))}>
        <PromptIcon />
      </button>
      {open && (
        <div className="prompt-menu" role="dialog" aria-label="Prompts" data-testid="prompt-menu">
          {error && <div className="error small" data-testid="prompt-error">{error}</div>}
          {picked ? (
            <ArgumentsForm prompt={picked} onInsert={(args) => insert(picked, args)} onBack={() => (setPicked(null), setError(null))} />
          ) : prompts === null ? (
            <div className="muted small">Reading the servers' prompts…</div>
          ) : prompts.length === 0 ? (
            <div className="muted small" data-testid="prompts-none">No prompts: the MCP servers connected now offer none (Settings → MCP).</div>
          ) : (
            <ul className="prompt-list">
              {prompts.map((p) => (
                <li key={`${p.server}/${p.name}`}>
                  <button data-testid="prompt-item" onClick={() => (p.arguments.length ? setPicked(p) : insert(p, {}))}>
                    <span className="prompt-title">{p.title}</span> <span className="muted small">{p.server}</span>
                    {p.description && <span className="prompt-description muted small">{p.description}</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
