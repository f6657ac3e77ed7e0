/**
 * Raster images and SVG (docs/viewer.md "Images"). Always an `<img>` whose src is the handle's same-origin URL:
 * an SVG shown this way is an image, never a document, so its `<script>` and `onload` never run (it is never
 * inlined into the page). Fit (the whole image in the panel, never enlarged past its actual size), zoom in and out
 * from the scale shown, or actual size; the scale is always shown. Pixels larger than a screen pixel stay crisp, and
 * an image smaller than the panel sits in its middle.
 */
import { useEffect, useRef, useState } from 'react';
import { fitScale, zoomed } from './image-scale';

type Mode = { kind: 'fit' } | { kind: 'scale'; scale: number };

export function ImageView({ url, name, reloadKey }: { url: string; name: string; reloadKey: number }) {
  const [mode, setMode] = useState<Mode>({ kind: 'fit' });
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [stage, setStage] = useState<{ w: number; h: number } | null>(null);
  const [failed, setFailed] = useState(false);
  const stageRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = stageRef.current;
    if (!el) return;
    const measure = () => setStage({ w: el.clientWidth, h: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // An SVG without a size of its own has no natural size: it is shown as the browser lays it out, with no scale.
  const sized = natural !== null && natural.w > 0 && natural.h > 0 ? natural : null;
  const fit = sized && stage ? fitScale(sized, stage) : null;
  const scale = mode.kind === 'scale' ? mode.scale : fit;
  const zoom = (step: 1 | -1) => setMode({ kind: 'scale', scale: zoomed(scale ?? 1, step) });
  return (
    <div className="viewer-image">
      <div className="viewer-toolbar">
        <button className={mode.kind === 'fit' ? 'active' : ''} onClick={() => setMode({ kind: 'fit' })}>
          Fit
        </button>
        <button onClick={() => zoom(-1)} aria-label="Zoom out">
          −
        </button>
        <button onClick={() => zoom(1)} aria-label="Zoom in">
          +
        </button>
        <button
          className={mode.kind === 'scale' && mode.scale === 1 ? 'active' : ''}
          onClick={() => setMode({ kind: 'scale', scale: 1 })}
        >
          Actual size
        </button>
        <span className="muted small" data-testid="viewer-image-info">
          {natural ? `${natural.w} × ${natural.h}` : ''}
          {sized && scale !== null ? ` · ${Math.round(scale * 100)}%` : ''}
        </span>
      </div>
      <div className="viewer-image-stage" ref={stageRef}>
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
            className={scale !== null && scale > 1 ? 'pixelated' : undefined}
            style={
              sized && scale !== null
                ? { width: sized.w * scale, height: sized.h * scale }
                : natural
                  ? { maxWidth: '100%' }
                  : { visibility: 'hidden' }
            }
          />
        )}
      </div>
    </div>
  );
}
