/**
 * A window whose renderer process is gone (Electron's `render-process-gone`: a crash, an out-of-memory kill, the
 * OS ending it) is reloaded (docs/desktop.md "A renderer crash"). Nothing of the product lives in the renderer:
 * turns, running tools and approvals go on in the main process, and the reloaded page reads the open session back
 * from the database (check R6 in docs/security-checks.md). A renderer that dies again and again before its page has
 * loaded once more is not reloaded a fourth time in a row, so a page that crashes at start cannot spin the machine;
 * the tray's Open then shows the window as it is, and the log says why.
 */
import type { WebContents } from 'electron';

export const MAX_RELOADS_IN_A_ROW = 3;

/** The part of a window's webContents the recovery uses. */
export type RecoverableContents = Pick<WebContents, 'on' | 'reload' | 'isDestroyed'>;

export function reloadWhenRendererGone(contents: RecoverableContents, log: (message: string) => void): void {
  let inARow = 0;
  contents.on('did-finish-load', () => {
    inARow = 0;
  });
  contents.on('render-process-gone', (_event, details) => {
    log(`the window's renderer is gone (${details.reason}, exit code ${details.exitCode})`);
    if (details.reason === 'clean-exit' || contents.isDestroyed()) return;
    if (++inARow > MAX_RELOADS_IN_A_ROW) {
      log(`the renderer died ${MAX_RELOADS_IN_A_ROW} times in a row before its page loaded; not reloading again`);
      return;
    }
    contents.reload();
  });
}
