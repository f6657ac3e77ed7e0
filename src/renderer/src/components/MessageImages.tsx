/**
 * The images of a person's message, or of a tool's result, in the chat (docs/chat-ui.md "Images in a message"): thumbnails of a fixed height
 * (the list estimates a row before it is measured), each loaded once through `chat:image` into an object URL kept
 * in a small cache (a session scrolled up and down does not ask again); a click opens it at full size over the
 * page, where Esc or a click closes it.
 */
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { ChatImage } from '../../../shared/contract/chat';
import { skald } from '../bridge/skald';
import { useDialogFocus } from '../lib/use-dialog-focus';

/** Object URLs of the images seen last; the oldest is let go past this many. */
const CACHE_SIZE = 48;
const urls = new Map<number, Promise<string>>();

function imageUrl(image: ChatImage): Promise<string> {
  const cached = urls.get(image.id);
  if (cached) {
    urls.delete(image.id);
    urls.set(image.id, cached); // most recent last
    return cached;
  }
  const loading = skald.chat.image({ id: image.id }).then(({ media_type, data }) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    return URL.createObjectURL(new Blob([bytes], { type: media_type }));
  });
  loading.catch(() => urls.delete(image.id));
  urls.set(image.id, loading);
  for (const [id, old] of urls) {
    if (urls.size <= CACHE_SIZE) break;
    urls.delete(id);
    void old.then(
      (u) => URL.revokeObjectURL(u),
      () => {},
    );
  }
  return loading;
}

function Thumbnail({ image, onOpen }: { image: ChatImage; onOpen: (url: string) => void }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    imageUrl(image).then(
      (u) => live && setUrl(u),
      () => live && setFailed(true),
    );
    return () => void (live = false);
  }, [image.id]);
  return (
    <button
      className="msg-image"
      title={image.name}
      aria-label={`Open ${image.name}`}
      disabled={!url}
      onClick={() => url && onOpen(url)}
      data-testid="msg-image"
    >
      {url ? (
        <img src={url} alt={image.name} />
      ) : (
        <span className="small muted">{failed ? 'not available' : image.name}</span>
      )}
    </button>
  );
}

/** An image full size over the window: a click or Escape closes it, and the focus goes back to its thumbnail. */
function ImageOverlay({ image, onClose }: { image: { url: string; name: string }; onClose: () => void }) {
  const root = useRef<HTMLDivElement>(null);
  // Escape closes this and does not stop a running turn (App's Esc); Tab stays on it (lib/use-dialog-focus.ts).
  useDialogFocus(root, onClose);
  return (
    <div
      ref={root}
      className="overlay image-overlay"
      role="dialog"
      aria-modal="true"
      aria-label={image.name}
      tabIndex={-1}
      data-testid="image-overlay"
      onClick={onClose}
    >
      <img src={image.url} alt={image.name} />
    </div>
  );
}

export function MessageImages({ images }: { images: readonly ChatImage[] }) {
  const [open, setOpen] = useState<{ url: string; name: string } | null>(null);
  return (
    <div className="msg-images">
      {images.map((image) => (
        <Thumbnail key={image.id} image={image} onOpen={(url) => setOpen({ url, name: image.name })} />
      ))}
      {/* Into the body: a list row is moved by a transform, which would hold a fixed element inside the row. */}
      {open && createPortal(<ImageOverlay image={open} onClose={() => setOpen(null)} />, document.body)}
    </div>
  );
}
