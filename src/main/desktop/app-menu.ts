/**
 * The application menu of our own (docs/desktop.md): the standard edit and window roles, reload and DevTools only
 * in a development build (never in a packaged app), and Settings on Ctrl/Cmd+, which the renderer handles.
 */
import type { MenuItemConstructorOptions } from 'electron';

export function appMenuTemplate(options: {
  isPackaged: boolean;
  isMac: boolean;
  appName: string;
  onQuit: () => void;
}): MenuItemConstructorOptions[] {
  const { isPackaged, isMac, appName, onQuit } = options;
  const quit: MenuItemConstructorOptions = { label: `Quit ${appName}`, accelerator: 'CmdOrCtrl+Q', click: onQuit };
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (!isPackaged) view.unshift({ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' });
  return [
    ...(isMac
      ? [
          {
            label: appName,
            submenu: [
              { role: 'about' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              quit,
            ],
          } as MenuItemConstructorOptions,
        ]
      : []),
    { label: 'File', submenu: [isMac ? { role: 'close' } : quit] },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    { label: 'View', submenu: view },
    {
      label: 'Window',
      submenu: [{ role: 'minimize' }, ...(isMac ? [{ role: 'zoom' } as MenuItemConstructorOptions] : [])],
    },
  ];
}

/** Every role in a template, submenus included (for the test that no packaged build offers DevTools). */
export function menuRoles(template: readonly MenuItemConstructorOptions[]): string[] {
  return template.flatMap((item) => [
    ...(item.role ? [String(item.role)] : []),
    ...(Array.isArray(item.submenu) ? menuRoles(item.submenu) : []),
  ]);
}
