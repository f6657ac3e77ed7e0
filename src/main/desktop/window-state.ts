/**
 * The main window's size, position and maximized state, remembered across runs in `window-state.json` in the data
 * folder (docs/desktop.md). A saved position that is no longer on any display (a monitor was unplugged) is dropped,
 * so the window never opens off-screen; a damaged file falls back to the defaults.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1280, height: 840 };
const MIN = { width: 640, height: 480 };

const StateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(MIN.width).max(20_000),
  height: z.number().int().min(MIN.height).max(20_000),
  isMaximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof StateSchema>;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Whether at least a 100×50 corner of `bounds` (its title bar) lies on one of the displays' work areas. */
export function isVisibleOn(bounds: Rect, workAreas: readonly Rect[]): boolean {
  return workAreas.some((a) => {
    const overlapX = Math.min(bounds.x + bounds.width, a.x + a.width) - Math.max(bounds.x, a.x);
    const overlapY = Math.min(bounds.y + 50, a.y + a.height) - Math.max(bounds.y, a.y);
    return overlapX >= 100 && overlapY >= 50;
  });
}

export function loadWindowState(dataDir: string, workAreas: readonly Rect[]): WindowState {
  let state: WindowState;
  try {
    state = StateSchema.parse(JSON.parse(readFileSync(join(dataDir, WINDOW_STATE_FILE), 'utf8')));
  } catch {
    return { ...DEFAULT_SIZE, isMaximized: false };
  }
  if (
    state.x !== undefined &&
    state.y !== undefined &&
    !isVisibleOn({ x: state.x, y: state.y, width: state.width, height: state.height }, workAreas)
  ) {
    const { x: _x, y: _y, ...rest } = state;
    return rest;
  }
  return state;
}

/** Written through a temp file and a rename, so a crash mid-write leaves the previous state. */
export function saveWindowState(dataDir: string, state: WindowState): void {
  const file = join(dataDir, WINDOW_STATE_FILE);
  const temp = `${file}.tmp`;
  writeFileSync(temp, JSON.stringify(state), { mode: 0o600 });
  renameSync(temp, file);
}
