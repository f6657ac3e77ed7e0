/**
 * Thumbnails of the images an `image_generate` call saved (docs/plugins.md "Image generation"). Each one is loaded
 * through a viewer handle (`viewer:resolve` under the viewer's read policy, docs/viewer.md "How a file reaches the
 * viewer"), never from a path the page builds; a click opens the image in the viewer through the card's usual open
 * path (the same as a tool path). The handles are let go when the card leaves the screen.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { ToolCard } from '../../../shared/contract/chat';
import { skald } from '../bridge/skald';
import { generatedImagePaths } from '../lib/generated-images';
import { chat } from '../stores/chat-store';
import type { ToolCardActions } from './tool-card-actions';

type Thumb = { status: 'loading' } | { status: 'ok'; url: string } | { status: 'unavailable'; message: string };

/** Resolves each path to a handle URL; releases the handles on unmount or when the paths change. */
function useThumbnails(paths: readonly string[], sessionId: number | null): Record<string, Thumb> {
  const [thumbs, setThumbs] = useState<Record<string, Thumb>>({});
  const key = paths.join('\n');
  useEffect(() => {
    let live = true;
    const handles: string[] = [];
    setThumbs(Object.fromEntries(paths.map((p) => [p, { status: 'loading' } as Thumb])));
    for (const path of paths) {
      skald.viewer.resolve({ path, ...(sessionId !== null ? { sessionId } : {}) }).then(
        (r) => {
          if (r.status === 'ok') {
            if (!live) return void skald.viewer.release({ handle: r.file.handle }).catch(() => {});
            handles.push(r.file.handle);
          }
          const thumb: Thumb =
            r.status === 'ok' ? { status: 'ok', url: r.file.url } : { status: 'unavailable', message: r.message };
          if (live) setThumbs((t) => ({ ...t, [path]: thumb }));
        },
        (e: Error) => live && setThumbs((t) => ({ ...t, [path]: { status: 'unavailable', message: e.message } })),
      );
    }
    return () => {
      live = false;
      for (const handle of handles) void skald.viewer.release({ handle }).catch(() => {});
    };
  }, [key, sessionId]); // `key` stands for `paths`, a new array on every render of the card
  return thumbs;
}

export function ImageThumbnails({ card, actions }: { card: ToolCard; actions: ToolCardActions }) {
  const sessionId = useStore(chat.store, (s) => s.sessionId);
  const paths = generatedImagePaths(card);
  const thumbs = useThumbnails(paths, sessionId);
  if (!paths.length) return null;
  return (
    <div className="image-thumbs" data-testid="image-thumbs">
      {paths.map((path) => {
        const thumb = thumbs[path] ?? { status: 'loading' };
        return (
          <button
            key={path}
            className="image-thumb"
            data-testid="image-thumb"
            title={`Open ${path} in the viewer`}
            aria-label={`Open ${path} in the viewer`}
            onClick={() => actions.openPath(path, card.tool_call_id)}
          >
            {thumb.status === 'ok' ? (
              <img src={thumb.url} alt={path} draggable={false} />
            ) : (
              <span className="muted small">{thumb.status === 'loading' ? '…' : path}</span>
            )}
          </button>
        );
      })}
    </div>
  );
}
