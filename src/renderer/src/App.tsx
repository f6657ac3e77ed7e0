/** The app shell: session list, the open chat, and the viewer; the one place that subscribes to core events. */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { skald } from './bridge/skald';
import { ChatView } from './components/ChatView';
import { SessionList } from './components/SessionList';
import { InboxPanel } from './components/InboxPanel';
import { SettingsPanel } from './components/SettingsPanel';
import { ViewerPanel } from './components/ViewerPanel';
import { chat } from './stores/chat-store';
import { createSession, modelsChanged, refreshSessions, selectSession, sessionsStore } from './stores/sessions-store';
import { showInViewer } from './stores/viewer-store';

type Info = Awaited<ReturnType<typeof skald.app.info>>;

export function App() {
  const [info, setInfo] = useState<Info | null>(null);
  const [error, setError] = useState<string | null>(null);
  const activeId = useStore(sessionsStore, (s) => s.activeId);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [inboxOpen, setInboxOpen] = useState(false);
  const [waiting, setWaiting] = useState(0);

  useEffect(() => {
    skald.app.info({}).then(setInfo, (e: Error) => setError(e.message));
    void refreshSessions().then((sessions) => {
      if (sessions[0]) selectSession(sessions[0].id);
      else void createSession();
    });
    const offChat = skald.on.chat((event) => {
      chat.apply(event);
      if (event.type === 'new_session') void refreshSessions().then(() => selectSession(event.session_id));
      if (event.type === 'turn_running' || event.type === 'user_message') void refreshSessions();
    });
    const offViewer = skald.on.viewer((event) => showInViewer(event.path, event.tool_call_id));
    // The badge: refreshed on every Inbox event and every 10 s (reference-facts.md §7).
    const badge = () => void skald.inbox.list({}).then((i) => setWaiting(i.total), () => {});
    badge();
    const offInbox = skald.on.inbox(badge);
    const timer = setInterval(badge, 10_000);
    return () => {
      offChat();
      offViewer();
      offInbox();
      clearInterval(timer);
    };
  }, []);

  return (
    <div className="app">
      <header className="app-header">
        <span className="brand">Skald</span>
        {info && (
          <span className="muted" data-testid="app-info">
            {info.shape} · v{info.version} · workspace {info.workspaceDir}
          </span>
        )}
        {error && <span className="error">{error}</span>}
        <span className="header-spacer" />
        <button data-testid="open-inbox" onClick={() => setInboxOpen(true)}>
          Inbox{waiting ? ` (${waiting})` : ''}
        </button>
        <button data-testid="open-settings" onClick={() => setSettingsOpen(true)}>Settings</button>
      </header>
      {inboxOpen && <InboxPanel onClose={() => setInboxOpen(false)} />}
      {settingsOpen && (
        <SettingsPanel
          onClose={() => {
            setSettingsOpen(false);
            modelsChanged();
          }}
        />
      )}
      <main className="app-main">
        <SessionList />
        {activeId !== null ? <ChatView sessionId={activeId} /> : <section className="chat" />}
        <ViewerPanel />
      </main>
    </div>
  );
}
