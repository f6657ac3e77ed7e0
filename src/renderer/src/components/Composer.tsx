/**
 * The message box: Enter sends, Shift+Enter is a new line; Stop sits beside Send while a turn runs. A message past
 * what one message may hold (a pasted log) is not sent: the box says so and what to do, and keeps the text.
 * Images come with a message by pasting, dropping or the file button (docs/chat-ui.md "Images in a message"): they
 * show above the box, each with a button that takes it out, and go with the text; a message may be images alone. A
 * text file put in the same ways goes into the box as a code block under its name.
 */
import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { MAX_MESSAGE_CHARS } from '../../../shared/contract/chat';
import { chat } from '../stores/chat-store';
import { ACCEPT_FILES, isPdfFile, isTextFile, pdfFileBlock, textFileBlock } from '../lib/picked-files';
import { addImages, isImageFile, releaseImages, type PickedImage } from '../lib/picked-images';
import { McpMenu } from './McpMenu';
import { rewindUi } from './rewind/rewind-store';

const count = (n: number) => n.toLocaleString('en-US');

export type SendImages = { name: string; data: string }[];

function ImageIcon() {
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
      <rect x="1.7" y="2.7" width="12.6" height="10.6" rx="1.6" />
      <circle cx="5.6" cy="6.4" r="1.3" />
      <path d="M2 12l3.6-3.4 2.6 2.4 2.3-2 3.5 3.2" />
    </svg>
  );
}

/**
 * Each chat's unsent text and images (docs/chat-ui.md "Drafts"): the box is the open chat's own, so what was typed in
 * one chat never shows, or is sent, in another; switching back finds it again. Kept while the window lives.
 */
const drafts = new Map<number, { text: string; images: PickedImage[] }>();

export function Composer({
  sessionId,
  running,
  onSend,
  onStop,
}: {
  sessionId: number;
  running: boolean;
  onSend: (text: string, images: SendImages) => Promise<void>;
  onStop: () => void;
}) {
  const [text, setText] = useState(() => drafts.get(sessionId)?.text ?? '');
  const [images, setImages] = useState<PickedImage[]>(() => drafts.get(sessionId)?.images ?? []);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const latest = useRef(images);
  latest.current = images;
  // The draft follows every change; its images' previews stay alive with it (released when sent or taken out).
  useEffect(() => {
    if (text || images.length) drafts.set(sessionId, { text, images });
    else drafts.delete(sessionId);
  }, [sessionId, text, images]);
  // A rewind hands the person's message back to this chat's box (docs/rewind.md "In the chat").
  const handed = useStore(rewindUi, (s) => s.composer);
  useEffect(() => {
    if (handed?.sessionId !== sessionId) return;
    setText(handed.text);
    rewindUi.setState({ composer: null });
  }, [handed, sessionId]);
  const isTooLong = text.length > MAX_MESSAGE_CHARS;
  const canSend = (text.trim().length > 0 || images.length > 0) && !isTooLong;

  /** Images join the message; text files and PDFs' text go into the box as code blocks (lib/picked-files.ts); anything else is refused. */
  const add = async (files: File[]) => {
    if (!files.length) return;
    const other = files.find((f) => !isImageFile(f) && !isTextFile(f) && !isPdfFile(f));
    if (other) return setError(`${other.name || 'That file'} is not an image, a PDF or a text file.`);
    const blocks: string[] = [];
    for (const file of files.filter((f) => !isImageFile(f))) {
      const read = isPdfFile(file) ? await pdfFileBlock(file) : await textFileBlock(file);
      if ('problem' in read) return setError(read.problem);
      blocks.push(read.block);
    }
    const pictures = files.filter(isImageFile);
    if (pictures.length) {
      const result = await addImages(latest.current, pictures);
      if ('problem' in result) return setError(result.problem);
      setImages(result.images);
    }
    setError(null);
    if (blocks.length) setText((current) => [current.trimEnd(), ...blocks].filter(Boolean).join('\n\n'));
  };
  const remove = (key: number) => {
    const gone = images.filter((i) => i.key === key);
    releaseImages(gone);
    setImages(images.filter((i) => i.key !== key));
  };
  /**
   * The box empties when the message goes, not when the core has answered: what the person types meanwhile (the
   * answer can take a while) is theirs and stays. A message the core refuses comes back, before anything typed since.
   */
  const send = async () => {
    const content = text.trim();
    if (!canSend) return;
    setError(null);
    const sent = images;
    setText('');
    setImages([]);
    try {
      await onSend(
        content,
        sent.map(({ name, data }) => ({ name, data })),
      );
      releaseImages(sent);
    } catch (e) {
      setError((e as Error).message);
      setText((typed) => [content, typed].filter(Boolean).join('\n'));
      setImages((picked) => [...sent, ...picked]);
    }
  };
  return (
    <div
      className={`composer${dragging ? ' composer-drop' : ''}`}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        if (!e.dataTransfer.files.length) return;
        e.preventDefault();
        setDragging(false);
        void add([...e.dataTransfer.files]); // anything but an image is refused with a sentence saying so
      }}
    >
      {error && (
        <div className="error" data-testid="composer-error">
          {error}
        </div>
      )}
      {isTooLong && (
        <div className="error" data-testid="composer-too-long">
          This message has {count(text.length)} characters; one message holds at most {count(MAX_MESSAGE_CHARS)}. Save
          the text as a file in the workspace and ask the agent to read it.
        </div>
      )}
      {images.length > 0 && (
        <div className="composer-images" data-testid="composer-images">
          {images.map((image) => (
            <div key={image.key} className="composer-image" title={image.name}>
              <img src={image.url} alt={image.name} />
              <button
                className="composer-image-remove"
                aria-label={`Remove ${image.name}`}
                onClick={() => remove(image.key)}
              >
                ×
              </button>
            </div>
          ))}
        </div>
      )}
      <textarea
        data-testid="composer"
        id="composer"
        aria-label="Message to the agent"
        placeholder={
          running ? 'The agent is working — a message now is added at its next step' : 'Message the agent, or /help'
        }
        value={text}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        onPaste={(e) => {
          const files = [...e.clipboardData.files];
          if (!files.length) return;
          e.preventDefault(); // the file, not its name as text
          void add(files);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void send();
          } else if (e.key === 'ArrowUp' && !text && !images.length && !running) {
            // As in a terminal or Slack: the newest message comes back to be edited (docs/chat-ui.md "Regenerate and Edit").
            e.preventDefault();
            chat.store.setState((s) => ({ editNewest: (s.editNewest ?? 0) + 1 }));
          }
        }}
      />
      <div className="composer-actions">
        <input
          ref={fileInput}
          type="file"
          accept={ACCEPT_FILES}
          multiple
          hidden
          data-testid="composer-file"
          onChange={(e) => {
            void add([...(e.target.files ?? [])]);
            e.target.value = ''; // the same file can be picked again
          }}
        />
        <McpMenu
          onText={(inserted) => setText((current) => [current.trimEnd(), inserted].filter(Boolean).join('\n\n'))}
          onFiles={(files) => void add(files)}
        />
        <button
          className="icon-button"
          data-testid="add-image"
          title="Add images, PDFs or text files (or paste or drop them)"
          aria-label="Add images, PDFs or text files"
          onClick={() => fileInput.current?.click()}
        >
          <ImageIcon />
        </button>
        {running && (
          <button className="danger" data-testid="stop" onClick={onStop}>
            Stop
          </button>
        )}
        <button className="primary" data-testid="send" disabled={isTooLong} onClick={() => void send()}>
          Send
        </button>
      </div>
    </div>
  );
}
