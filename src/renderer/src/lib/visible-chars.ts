/**
 * Makes invisible characters visible (docs/approval.md "Approval binding"; check X6 in docs/security-checks.md):
 * zero-width, bidirectional controls, soft hyphen, BOM, and other format characters become `⟦U+XXXX⟧`, so what a person
 * approves is what runs. Ordinary whitespace (space, tab, newline) stays as it is.
 */
const INVISIBLE =
  /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]/gu;

export function revealInvisible(text: string): string {
  return text.replace(INVISIBLE, (ch) => `⟦U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟧`);
}

export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  const found = INVISIBLE.test(text);
  INVISIBLE.lastIndex = 0;
  return found;
}
