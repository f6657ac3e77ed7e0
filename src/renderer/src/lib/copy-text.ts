/**
 * Puts text on the clipboard from a click (docs/chat-ui.md "Copying"). The asynchronous clipboard API first; where the
 * page may not use it (the desktop shell answers every permission request no, docs/security-checks.md E7, and a page
 * without focus is refused too), a selected hidden text area and the copy command, which a click allows without any
 * permission. Only ever writes; the clipboard is never read.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return copyWithCommand(text);
  }
}

function copyWithCommand(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  const focused = document.activeElement as HTMLElement | null;
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    focused?.focus?.();
  }
}
