/** The parent accepts only the preview frame's own link message, of the one tiny shape. */
import { describe, expect, it } from 'vitest';
import { acceptPreviewMessage } from './preview-messages';

const frame = {} as Window;
const other = {} as Window;

describe('preview messages', () => {
  it('accepts a link message from the preview frame', () => {
    expect(acceptPreviewMessage({ source: frame, data: { type: 'skald-link', href: 'b.html' } }, frame)).toEqual({
      href: 'b.html',
    });
  });

  it('drops messages from any other window, or when there is no frame', () => {
    expect(acceptPreviewMessage({ source: other, data: { type: 'skald-link', href: 'b.html' } }, frame)).toBeNull();
    expect(acceptPreviewMessage({ source: null, data: { type: 'skald-link', href: 'b.html' } }, frame)).toBeNull();
    expect(acceptPreviewMessage({ source: frame, data: { type: 'skald-link', href: 'b.html' } }, null)).toBeNull();
  });

  it('drops every other shape', () => {
    for (const data of [
      'skald-link',
      null,
      [],
      { type: 'skald-link' },
      { type: 'skald-link', href: 42 },
      { type: 'skald-link', href: '' },
      { type: 'skald-link', href: 'x'.repeat(2_001) },
      { type: 'invoke', href: 'x' },
      { type: 'skald-link', href: 'b.html', channel: 'chat:send' },
    ]) {
      expect(acceptPreviewMessage({ source: frame, data }, frame)).toBeNull();
    }
  });
});
