/**
 * A tool call's label as a screen reader reads it (docs/ui.md "What is announced"): its backticked code parts as plain
 * words, `write_file \`hello.txt\`` → `write_file hello.txt`. The card shows the same label with its code as code.
 */
import { toolLabelSegments } from '../../../shared/labels';

export function plainToolLabel(label: string): string {
  return toolLabelSegments(label)
    .map((segment) => segment.text)
    .join('');
}
