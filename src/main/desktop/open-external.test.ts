import { describe, expect, it, vi } from 'vitest';
import { openExternalSafe } from './open-external';

function deps(confirmAnswer = false) {
  return { openExternal: vi.fn(async () => {}), confirm: vi.fn(async () => confirmAnswer), log: vi.fn() };
}

describe('openExternalSafe (E6)', () => {
  it('opens http, https and mailto directly', async () => {
    for (const url of ['https://example.com/a?b=1', 'http://example.com', 'mailto:me@example.com']) {
      const d = deps();
      expect(await openExternalSafe(url, d)).toBe(true);
      expect(d.openExternal).toHaveBeenCalledTimes(1);
      expect(d.confirm).not.toHaveBeenCalled();
    }
  });

  it('never opens local, script or handler schemes, nor malformed URLs', async () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<script>',
      'smb://host/share',
      'ms-msdt:/id',
      'not a url',
      '',
      'app://skald/index.html',
    ]) {
      const d = deps(true);
      expect(await openExternalSafe(url, d)).toBe(false);
      expect(d.openExternal).not.toHaveBeenCalled();
    }
  });

  it('asks before an unknown scheme; cancel opens nothing', async () => {
    const cancel = deps(false);
    expect(await openExternalSafe('zoommtg://join?id=1', cancel)).toBe(false);
    expect(cancel.confirm).toHaveBeenCalledTimes(1);
    expect(cancel.openExternal).not.toHaveBeenCalled();
    const accept = deps(true);
    expect(await openExternalSafe('zoommtg://join?id=1', accept)).toBe(true);
    expect(accept.openExternal).toHaveBeenCalledWith('zoommtg://join?id=1');
  });
});
