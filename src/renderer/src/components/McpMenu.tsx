/**
 * The message box's MCP button (docs/mcp.md "Prompts and resources"): the prompts and resources the connected MCP
 * servers offer, read when it opens (`mcp:prompts`, `mcp:resources`). A prompt with arguments asks for them first;
 * the filled-in prompt (`mcp:getPrompt`) goes into the box as text, where the person reads and edits it before
 * sending; a resource (`mcp:readResource`) as its text under its URI, or an image of the message. Arrow keys move
 * between the entries (the first has the focus when the list comes); Esc or a click outside closes it.
 */
import { useEffect, useRef, useState } from 'react';
import type { McpPromptView, McpResourceView } from '../../../shared/contract/mcp';
import { skald } from '../bridge/skald';

function PromptIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      aria-hidden="true"
    >
      <path d="M3 2.5h7.5l2.5 2.5v8.5H3z" />
      <path d="M5.5 7h5M5.5 9.5h5M5.5 12h3" />
    </svg>
  );
}

const errorText = (e: unknown) => (e as Error).message;

function ArgumentsForm({
  prompt,
  onInsert,
  onBack,
}: {
  prompt: McpPromptView;
  onInsert: (args: Record<string, string>) => void;
  onBack: () => void;
}) {
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
          <input
            autoFocus={i === 0}
            required={a.required}
            data-testid={`prompt-arg-${a.name}`}
            value={values[a.name] ?? ''}
            onChange={(e) => setValues({ ...values, [a.name]: e.target.value })}
          />
        </label>
      ))}
      <div className="prompt-form-actions">
        <button type="button" onClick={onBack}>
          Back
        </button>
        <button type="submit" className="primary" data-testid="prompt-insert">
          Insert
        </button>
      </div>
    </form>
  );
}

type Listed = { prompts: McpPromptView[]; resources: McpResourceView[] };

/** An image a resource gave, as a file the message box takes like a picked one. */
function imageFile(image: { name: string; media_type: string; data: string }): File {
  return new File([Uint8Array.from(atob(image.data), (c) => c.charCodeAt(0))], image.name, { type: image.media_type });
}

export function McpMenu({ onText, onFiles }: { onText: (text: string) => void; onFiles: (files: File[]) => void }) {
  const [open, setOpen] = useState(false);
  const [listed, setListed] = useState<Listed | null>(null);
  const [picked, setPicked] = useState<McpPromptView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    let live = true;
    setListed(null);
    Promise.all([skald.mcp.prompts({}), skald.mcp.resources({})]).then(
      ([p, r]) => live && setListed({ prompts: p.prompts, resources: r.resources }),
      (e) => live && (setListed({ prompts: [], resources: [] }), setError(errorText(e))),
    );
    const outside = (e: MouseEvent) => !root.current?.contains(e.target as Node) && close();
    // The focus leaving the menu by Tab (or a click elsewhere) closes it, as a menu does.
    const left = (e: FocusEvent) => {
      const to = e.relatedTarget as Node | null;
      if (to && root.current && !root.current.contains(to)) close();
    };
    const menu = root.current;
    menu?.addEventListener('focusout', left);
    document.addEventListener('mousedown', outside);
    return () => {
      live = false;
      document.removeEventListener('mousedown', outside);
      menu?.removeEventListener('focusout', left);
    };
  }, [open]);
  /** Closes the menu; the focus, if it was in the menu, goes back to its button (or to the box, after an insert). */
  const close = (focusTo: 'button' | 'composer' = 'button') => {
    const hadFocus = root.current?.contains(document.activeElement) ?? false;
    setOpen(false);
    setPicked(null);
    setError(null);
    if (hadFocus) (focusTo === 'composer' ? document.getElementById('composer') : trigger.current)?.focus();
  };
  const done = (work: Promise<void>) =>
    work.then(
      () => close('composer'),
      (e) => setError(errorText(e)),
    );
  const insert = (prompt: McpPromptView, args: Record<string, string>) => {
    setError(null);
    void done(
      skald.mcp
        .getPrompt({ server: prompt.server, name: prompt.name, arguments: args })
        .then(({ text }) => onText(text)),
    );
  };
  const read = (resource: McpResourceView) => {
    setError(null);
    void done(
      skald.mcp
        .readResource({ server: resource.server, uri: resource.uri })
        .then((r) => (r.image ? onFiles([imageFile(r.image)]) : onText(r.text!))),
    );
  };
  const isEmpty = listed !== null && listed.prompts.length === 0 && listed.resources.length === 0;
  // The list's entries, for the arrow keys: the first takes the focus when the list comes.
  const entries = () => [...(root.current?.querySelectorAll<HTMLButtonElement>('.prompt-list button') ?? [])];
  useEffect(() => {
    if (listed && !picked) entries()[0]?.focus();
  }, [listed, picked]);
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault(); // closes this, and does not stop a running turn (App's Esc)
      return close();
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const all = entries();
    if (!all.length) return;
    e.preventDefault();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      at < 0
        ? e.key === 'ArrowDown'
          ? 0
          : all.length - 1
        : (at + (e.key === 'ArrowDown' ? 1 : all.length - 1)) % all.length;
    all[next]!.focus();
  };
  return (
    <div className="prompt-picker" ref={root} onKeyDown={onKey}>
      <button
        ref={trigger}
        className="icon-button"
        data-testid="prompts"
        title="Insert a prompt or a resource from an MCP server"
        aria-label="Insert a prompt or resource"
        aria-expanded={open}
        onClick={() => (open ? close() : setOpen(true))}
      >
        <PromptIcon />
      </button>
      {open && (
        <div className="prompt-menu" role="dialog" aria-label="Prompts and resources" data-testid="prompt-menu">
          {error && (
            <div className="error small" data-testid="prompt-error">
              {error}
            </div>
          )}
          {picked ? (
            <ArgumentsForm
              prompt={picked}
              onInsert={(args) => insert(picked, args)}
              onBack={() => (setPicked(null), setError(null))}
            />
          ) : listed === null ? (
            <div className="muted small">Reading the servers' prompts and resources…</div>
          ) : isEmpty ? (
            <div className="muted small" data-testid="prompts-none">
              No prompts or resources: the MCP servers connected now offer none (Settings → MCP).
            </div>
          ) : (
            <>
              {listed.prompts.length > 0 && <div className="prompt-heading small muted">Prompts</div>}
              <ul className="prompt-list">
                {listed.prompts.map((p) => (
                  <li key={`${p.server}/${p.name}`}>
                    <button
                      data-testid="prompt-item"
                      onClick={() => (p.arguments.length ? setPicked(p) : insert(p, {}))}
                    >
                      <span className="prompt-title">{p.title}</span> <span className="muted small">{p.server}</span>
                      {p.description && <span className="prompt-description muted small">{p.description}</span>}
                    </button>
                  </li>
                ))}
              </ul>
              {listed.resources.length > 0 && <div className="prompt-heading small muted">Resources</div>}
              <ul className="prompt-list">
                {listed.resources.map((r) => (
                  <li key={`${r.server}/${r.uri}`}>
                    <button data-testid="resource-item" title={r.uri} onClick={() => read(r)}>
                      <span className="prompt-title">{r.name}</span> <span className="muted small">{r.server}</span>
                      {r.description && <span className="prompt-description muted small">{r.description}</span>}
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
