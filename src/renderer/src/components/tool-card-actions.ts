/** What a tool card can ask of the chat around it (ToolCardView.tsx and the parts it is drawn with). */
import type { ToolCard } from '../../../shared/contract/chat';

export interface ToolCardActions {
  /** Opens a path in the viewer: at `line` when given (a search hit), else at the line the call names. */
  openPath: (path: string, toolCallId: string, line?: number) => void;
  rerun: (card: ToolCard) => void;
  /** A finished write's before/after in the viewer (docs/viewer.md "Diff and revert"); `revert` asks to undo it. */
  openDiff?: (card: ToolCard, revert: boolean) => void;
}
