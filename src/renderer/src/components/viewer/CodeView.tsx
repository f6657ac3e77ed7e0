/**
 * Source and plain text in Monaco, read-only (docs/viewer.md "Source"). Monaco arrives as a lazy chunk the first
 * time a code view mounts. A new text for the same view (live reload) keeps the scroll position, or, where the view
 * was scrolled to its end, shows the new end (a log that grows); `line` reveals
 * and selects that line (a tool call's range) and marks it plainly in both themes; each new `lineRequest` reveals it
 * again, so a second click on the same hit jumps back after the person scrolled away.
 */
import { useEffect, useRef, useState } from 'react';
import type * as Monaco from 'monaco-editor/editor/editor.api.js';
import { useTheme } from './theme';

type MonacoModule = typeof Monaco;
/** How near the end a scroll position still counts as "at the end" (a part of a line). */
const END_SLACK_PX = 4;
let loading: Promise<MonacoModule> | null = null;
export function loadMonaco(): Promise<MonacoModule> {
  loading ??= import('./monaco-setup').then((m) => m.monaco);
  return loading;
}

export function CodeView({
  text,
  language,
  line,
  lineRequest = 0,
}: {
  text: string;
  language: string;
  line: number | null;
  lineRequest?: number;
}) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null);
  const revealed = useRef<Monaco.editor.IEditorDecorationsCollection | null>(null);
  const [monaco, setMonaco] = useState<MonacoModule | null>(null);
  const [error, setError] = useState<string | null>(null);
  const theme = useTheme();

  useEffect(() => {
    let live = true;
    loadMonaco().then(
      (m) => live && setMonaco(m),
      (e: Error) => live && setError(`The code view could not load: ${e.message}`),
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (!monaco || !host.current) return;
    const created = monaco.editor.create(host.current, {
      value: text,
      language,
      readOnly: true,
      domReadOnly: true,
      automaticLayout: true,
      // Off: in a viewer a few hundred pixels wide the minimap covered the lines' ends (docs/viewer.md).
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      renderWhitespace: 'selection',
      fontSize: 13,
      theme: theme === 'light' ? 'vs' : 'vs-dark',
      ariaLabel: 'File content, read only',
    });
    editor.current = created;
    return () => {
      created.getModel()?.dispose();
      created.dispose();
      editor.current = null;
      revealed.current = null;
    };
    // The editor is made once per Monaco load; text, language, line and theme are applied by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [monaco]);

  useEffect(() => {
    const ed = editor.current;
    const model = ed?.getModel();
    if (!ed || !model || model.getValue() === text) return;
    const top = ed.getScrollTop();
    // Scrolled down to the end (a log being written, read as `tail -f` shows it): the new end stays in view.
    const atEnd = top > 0 && top + ed.getLayoutInfo().height >= ed.getScrollHeight() - END_SLACK_PX;
    model.setValue(text);
    if (atEnd) ed.revealLine(model.getLineCount());
    else ed.setScrollTop(top);
  }, [text]);

  useEffect(() => {
    const model = editor.current?.getModel();
    if (monaco && model) monaco.editor.setModelLanguage(model, language);
  }, [monaco, language]);

  useEffect(() => {
    monaco?.editor.setTheme(theme === 'light' ? 'vs' : 'vs-dark');
  }, [monaco, theme]);

  useEffect(() => {
    const ed = editor.current;
    if (!ed || line === null) return;
    const at = Math.min(line, ed.getModel()?.getLineCount() ?? line);
    ed.revealLineInCenter(at);
    ed.setSelection({ startLineNumber: at, startColumn: 1, endLineNumber: at, endColumn: Number.MAX_SAFE_INTEGER });
    // An unfocused editor's selection is faint (light theme above all): the line also gets a mark of its own.
    revealed.current ??= ed.createDecorationsCollection();
    revealed.current.set([
      {
        range: { startLineNumber: at, startColumn: 1, endLineNumber: at, endColumn: 1 },
        options: {
          isWholeLine: true,
          className: 'viewer-line-revealed',
          linesDecorationsClassName: 'viewer-line-revealed-gutter',
        },
      },
    ]);
  }, [monaco, line, lineRequest]);

  if (error) return <div className="viewer-message error">{error}</div>;
  return <div className="viewer-code" ref={host} data-testid="viewer-code" data-ready={monaco ? 'yes' : 'no'} />;
}
