/**
 * Raster images and SVG (docs/viewer.md "Images"). Always an `<img>` whose src is the handle's same-origin URL:
 * an SVG shown this way is an image, never a document, so its `<script>` and `onload` never run (it is never
 * inlined into the page). Fit to the panel, zoom in and out, or actual size.
 */
import { useState } from 'react';

type Mode = { kind: 'fit' } | { kind: 'scale'; scale: number };

export function ImageView({ url, name, reloadKey }: { url: string; name: string; reloadKey: number }) {
  const [mode, setMode] = useState<Mode>({ kind: 'fit' });
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [failed, setFailed] = useState(false);
  const scale = mode.kind === 'scale' ? mode.scale : null;
  const zoom = (factor: number) => setMode({ kind: 'scale', scale: Math.min(16, Math.max(0.05, (scale ?? 1) * factor)) });
  return (
    <div className="viewer-image">
      <div className="viewer-toolbar">
        <button className={mode.kind === 'fit' ? 'active' : ''} onClick={() => setMode({ kind: 'fit' })}>Fit</button>
        <button onClick={() => zoom(1 / 1.25)} aria-label="Zoom out">−</button>
        <button onClick={() => zoom(1.25)} aria-label="Zoom in">+</button>
        <button className={scale === 1 ? 'active' : ''} onClick={() => setMode({ kind: 'scale', scale: 1 })}>Actual size</button>
        <span className="muted small">
          {natural ? `${natural.w} × ${natural.h}` : ''}
          {scale !== null ? ` · ${Math.round(scale * 100)}%` : ''}
        </span>
      </div>
      <div className={`viewer-image-stage ${mode.kind === 'fit' ? 'fit' : ''}`}>
        {failed ? (
          <div className="viewer-message error">This image could not be decoded.</div>
        ) : (
          <img
            key={reloadKey}
            src={url}
            alt={name}
            data-testid="viewer-image"
            draggable={false}
            onLoad={(e) => setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
            onError={() => setFailed(true)}
            style={scale !== null && natural ? { width: natural.w * scale, height: natural.h * scale, maxWidth: 'none' } : undefined}
          />
        )}
      </div>
    </div>
  );
}
