/**
 * A person's decision has one sentence (shared/contract/approval.ts): the core writes it into the audit and the
 * decision, and the card, which already says "allowed by you", shows only the note in it.
 */
import { describe, expect, it } from 'vitest';
import { humanDecisionNote, humanDecisionText } from './approval';

describe("a person's decision sentence", () => {
  it('says who decided, with the note when there is one', () => {
    expect(humanDecisionText(null)).toBe('Decided by you.');
    expect(humanDecisionText('')).toBe('Decided by you.');
    expect(humanDecisionText('only this once')).toBe('Decided by you: only this once');
  });

  it('gives the note back, and nothing when there is none', () => {
    for (const note of ['', 'only this once', 'a note: with a colon', 'Decided by you.'])
      expect(humanDecisionNote(humanDecisionText(note))).toBe(note);
    // A sentence of another shape (an older row's) is shown whole.
    expect(humanDecisionNote('Approved in the Inbox')).toBe('Approved in the Inbox');
  });
});
