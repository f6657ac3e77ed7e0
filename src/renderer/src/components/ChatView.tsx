/** The chat of the open session: messages, streaming reply, tool cards with approvals, and the composer. */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { ToolCard } from '../../../shared/contract/chat';
import { skald } from '../bridge/skald';
import { approvals } from '../stores/approvals';
import { chat } from '../stores/chat-store';
import { refreshSessions, sessionsStore } from '../stores/sessions-store';
import { Composer } from './Composer';
import { BackgroundRunBanner } from './schedules/BackgroundRunBanner';
import { openDiffTab, openInViewer } from '../stores/viewer-store';
import { VIEWER_PATH_ATTR } from '../lib/markdown';
import { focusViewerFrom } from '../lib/viewer-focus';
import { lineOfToolCall } from './viewer/tool-range';
import { ScratchpadPanel, SessionNotes } from './agents/SessionNotes';
import { MessageList } from './MessageList';
import { RetryBar } from './RetryBar';
import { RewindLayer } from './rewind/RewindLayer';
import { ModelPicker } from './ModelPicker';
import { WorkingDirectory } from './WorkingDirectory';
import { GroupPicker } from './security/GroupPicker';
import type { ToolCardActions } from './ToolCardView';

const actions: ToolCardActions = {
  // A renderer-local action (docs/viewer.md): the tab opens at once, at the line the call names if any.
  openPath: (path, toolCallId, line) => {
    const card =
      line === undefined
        ? chat.store
            .getState()
            .messages.flatMap((m) => m.tools)
            .find((t) => t.tool_call_id === toolCallId)
        : undefined;
    openInViewer(path, {
      toolCallId,
      sessionId: chat.store.getState().sessionId,
      line: line ?? (card ? lineOfToolCall(card) : null),
    });
    focusViewerFrom(document.activeElement);
  },
  openDiff: (card, revert) => {
    openDiffTab(card.tool_call_id, card.path ?? card.name, chat.store.getState().sessionId, revert);
    focusViewerFrom(document.activeElement);
  },
  rerun: (card: ToolCard) => {
    const sessionId = chat.store.getState().sessionId;
    if (sessionId !== null) void skald.chat.rerunTool({ sessionId, toolCallId: card.tool_call_id });
  },
};

function openLinkedFile(event: React.MouseEvent, sessionId: number): void {
  const link = (event.target as HTMLElement).closest(`[${VIEWER_PATH_ATTR}]`);
  const path = link?.getAttribute(VIEWER_PATH_ATTR);
  if (!path) return;
  event.preventDefault();
  openInViewer(path.split('#')[0]!, { sessionId });
}

export function ChatView({ sessionId }: { sessionId: number }) {
  // Only what this view shows itself: the list reads its own slices, so a streaming reply never re-renders this.
  const running = useStore(chat.store, (s) => s.running);
  // The list opens once the session's newest page is in the store, so its first rows are the newest ones (it
  // starts at its bottom), never the previous session's or the top of this one.
  const loaded = useStore(chat.store, (s) => s.loaded && s.sessionId === sessionId);
  const session = useStore(sessionsStore, (s) => s.sessions.find((x) => x.id === sessionId));
  useEffect(() => {
    void chat.open(sessionId);
  }, [sessionId]);
  // Pending cards read their approval from the same store the Inbox shows.
  useEffect(() => approvals.watch(), []);
  const [padOpen, setPadOpen] = useState(false);
  return (
    <section className="chat" data-testid="chat">
      <BackgroundRunBanner sessionId={sessionId} />
      {/* Keyed by session: each session opens at its newest message with fresh scroll state. */}
      {/* A relative file link in an agent's message opens in the viewer (docs/viewer.md). */}
      <div className="chat-body">
        <div className="chat-messages" onClick={(e) => openLinkedFile(e, sessionId)}>
          {loaded ? (
            <MessageList key={sessionId} store={chat.store} actions={actions} onNearTop={() => chat.loadOlder()} />
          ) : (
            <div className="message-list" />
          )}
        </div>
        {/* The scratchpad opens beside the messages (docs/agents.md "Session tools"). */}
        {padOpen && <ScratchpadPanel sessionId={sessionId} onClose={() => setPadOpen(false)} />}
      </div>
      <SessionNotes sessionId={sessionId} padOpen={padOpen} onTogglePad={() => setPadOpen(!padOpen)} />
      <RetryBar sessionId={sessionId} />
      <div className="chat-bar">
        <ModelPicker sessionId={sessionId} current={session?.model ?? null} onChanged={() => void refreshSessions()} />
        <WorkingDirectory
          sessionId={sessionId}
          current={session?.working_directory ?? ''}
          running={running}
          onChanged={() => void refreshSessions()}
        />
        <GroupPicker sessionId={sessionId} />
      </div>
      {/* Keyed by session: each chat has its own draft (components/Composer.tsx). */}
      <Composer
        key={sessionId}
        sessionId={sessionId}
        running={running}
        onSend={(text, images) => chat.send(text, images)}
        onStop={() => void chat.stop()}
      />
      {/* Rewind's dialog and its Esc Esc picker (docs/rewind.md "In the chat"). */}
      <RewindLayer />
    </section>
  );
}
