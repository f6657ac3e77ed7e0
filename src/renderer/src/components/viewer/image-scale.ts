/**
 * The image view's scales (docs/viewer.md "Images"): fit shows the whole image in the panel, shrunk but never
 * enlarged past its actual size (a small icon stays crisp at 100%); zoom steps by 25% from the scale on screen, so
 * zooming in from fit goes one step above the fitted scale rather than jumping to the actual size.
 */
export const MIN_SCALE = 0.05;
export const MAX_SCALE = 16;
const STEP = 1.25;
/** The stage's padding on each side (viewer.css `.viewer-image-stage`). */
export const STAGE_PADDING = 12;

type Size = { w: number; h: number };

export function fitScale(image: Size, stage: Size): number {
  if (image.w <= 0 || image.h <= 0) return 1;
  const room = { w: Math.max(1, stage.w - 2 * STAGE_PADDING), h: Math.max(1, stage.h - 2 * STAGE_PADDING) };
  return Math.max(MIN_SCALE, Math.min(1, room.w / image.w, room.h / image.h));
}

export function zoomed(scale: number, step: 1 | -1): number {
  const next = step === 1 ? scale * STEP : scale / STEP;
  // Passing 100% on the way lands on it, so actual size is always one of the steps.
  const crosses = (scale < 1 && next > 1) || (scale > 1 && next < 1);
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, crosses ? 1 : next));
}
