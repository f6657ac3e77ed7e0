/**
 * The app shell (docs/ui.md): the header's navigation (Chat, Security, Schedules, Settings, Inbox), the open page, the
 * keyboard shortcuts (Ctrl/Cmd+K switch session, Ctrl/Cmd+, Settings, Esc stops the running turn) and the theme.
 * The one place that subscribes to core events.
 */
import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { useStore } from 'zustand';
import { skald } from './bridge/skald';
import { ChatView } from './components/ChatView';
import { SessionList } from './components/SessionList';
import { SessionRail } from './components/SessionRail';
import { FileView, ViewerPanel } from './components/ViewerPanel';
import { SessionDirectory } from './components/WorkingDirectory';
import { ReconnectingBar } from './components/ReconnectingBar';
import { RenderGuard } from './components/RenderGuard';
import { onReconnect } from './bridge/connection';
import { chat } from './stores/chat-store';
import {
  modelsChanged,
  openCreatedSession,
  openFirstScreen,
  refreshSessions,
  selectSession,
  sessionDeleted,
  sessionsStore,
} from './stores/sessions-store';
import { applySubAgentEvent } from './components/agents/sub-agent-store';
import { startTheme } from './stores/theme';
import { showInViewer, showViewer, viewerFileChanged, viewerPathChanged, viewerStore } from './stores/viewer-store';
import { lazyPage, preloadWhenIdle } from './lib/lazy-page';
import { useLayout } from './lib/use-layout';
import { focusViewerFrom } from './lib/viewer-focus';
import { announceChatEvent } from './stores/announcer';
import { LiveAnnouncer } from './components/LiveAnnouncer';
import './theme.css';

// Not on the chat's first paint: their own chunks, preloaded when idle and on hover (lib/lazy-page.ts).
const SecurityPage = lazyPage(
  () => import('./components/security/SecurityPage'),
  (m) => m.SecurityPage,
);
const SchedulesPage = lazyPage(
  () => import('./components/schedules/SchedulesPage'),
  (m) => m.SchedulesPage,
);
const SettingsPage = lazyPage(
  () => import('./components/settings/SettingsPage'),
  (m) => m.SettingsPage,
);
const InboxPanel = lazyPage(
  () => import('./components/InboxPanel'),
  (m) => m.InboxPanel,
);
const SessionSwitcher = lazyPage(
  () => import('./components/SessionSwitcher'),
  (m) => m.SessionSwitcher,
);
const FirstRunGuide = lazyPage(
  () => import('./components/FirstRunGuide'),
  (m) => m.FirstRunGuide,
);
type GuideProps = { onDone: () => void; onEngaged: () => void };
type FirstRunState = ComponentType<GuideProps> | 'loading' | null;

/** Whether this is the first run (no model set up); when it is, the guide's chunk starts loading at once. */
const askFirstRun = (): Promise<boolean> =>
  skald.models.list({}).then((m) => {
    if (m.models.length > 0) return false;
    FirstRunGuide.preload().catch(() => {}); // App shows the guide once it is in
    return true;
  });
let firstRunAnswer: Promise<boolean> | null = null;

/**
 * Asked by the entry (main.tsx) before React's first render, as the first screen is: the answer, and on a first run
 * the guide's chunk, travel while the app renders; the app's first check takes it (docs/ui.md "What the first page
 * loads").
 */
export function requestFirstRunCheck(): void {
  firstRunAnswer ??= askFirstRun();
  firstRunAnswer.catch(() => undefined); // a failure is asked again by the app's check
}

const LAZY_PAGES = [FileView, SessionSwitcher, InboxPanel, SettingsPage, SecurityPage, SchedulesPage];
/** Starts a page's chunk when the pointer or keyboard focus reaches its button. */
const preloadOn = (page: { preload(): Promise<unknown> }) => {
  const start = () => void page.preload().catch(() => {});
  return { onPointerEnter: start, onFocus: start };
};
/** While a page's chunk arrives (only when it was not preloaded yet). */
const pageLoading = <div className="page-loading" aria-busy="true" />;

/** The open chat's card of a call (for what the announcer says about it). */
const cardOfOpenChat = (toolCallId: string) =>
  chat.store
    .getState()
    .messages.flatMap((m) => m.tools)
    .find((t) => t.tool_call_id === toolCallId);

/** Skips the header and the chat list: the message box takes the focus (docs/ui.md "Keyboard"). */
function SkipToComposer() {
  return (
    <a
      className="skip-link"
      href="#composer"
      onClick={(e) => {
        e.preventDefault();
        document.getElementById('composer')?.focus();
      }}
    >
      Skip to the message box
    </a>
  );
}

type Info = Awaited<ReturnType<typeof skald.app.info>>;
type View = 'chat' | 'security' | 'schedules' | 'settings';

const isMac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform);

export function App() {
  const [info, setInfo] = useState<Info | null>(null);
  const [error, setError] = useState<string | null>(null);
  const activeId = useStore(sessionsStore, (s) => s.activeId);
  const [view, setView] = useState<View>('chat');
  const [inboxOpen, setInboxOpen] = useState(false);
  const [switcherOpen, setSwitcherOpen] = useState(false);
  const [waiting, setWaiting] = useState(0);
  /**
   * No provider yet: the first-run guide stands in for the chat (docs/ui.md); 'loading' while its chunk comes, with
   * an empty chat's place shown meanwhile. The guide is rendered as its loaded component, not through a Suspense
   * fallback, which React would hold for 300 ms after the chunk came (lib/lazy-page.ts `loaded`); only when the chunk
   * failed to load does the lazy one (through Suspense) try again.
   */
  const [FirstRun, setFirstRun] = useState<FirstRunState>(null);
  const firstRun = FirstRun !== null;
  const [guideEngaged, setGuideEngaged] = useState(false);
  const layout = useLayout();
  const viewerTabs = useStore(viewerStore, (s) => s.tabs.length);
  const viewerHidden = useStore(viewerStore, (s) => s.isHidden);
  const chatTitle = useStore(sessionsStore, (s) => s.sessions.find((x) => x.id === s.activeId)?.title);

  useEffect(() => startTheme(), []);
  useEffect(() => preloadWhenIdle(LAZY_PAGES), []);
  const checkFirstRun = () => {
    const asked = firstRunAnswer;
    firstRunAnswer = null;
    return (asked ? asked.catch(askFirstRun) : askFirstRun()).then(
      (none) => {
        if (!none) return setFirstRun(null);
        // The guide keeps the component it was first shown with (another would mount it anew, losing its steps).
        const loaded = FirstRunGuide.loaded();
        setFirstRun((shown: FirstRunState) => (shown === null ? (loaded ?? 'loading') : shown));
        if (loaded) return;
        const show = (guide: ComponentType<GuideProps>) =>
          setFirstRun((shown: FirstRunState) => (shown === 'loading' ? guide : shown));
        FirstRunGuide.preload().then(
          () => show(FirstRunGuide.loaded() ?? FirstRunGuide),
          () => show(FirstRunGuide),
        );
      },
      () => {},
    );
  };

  useEffect(() => {
    skald.app.info({}).then(setInfo, (e: Error) => setError(e.message));
    void checkFirstRun();
    void openFirstScreen();
    const offChat = skald.on.chat((event) => {
      chat.apply(event);
      announceChatEvent(event, { openSessionId: sessionsStore.getState().activeId, cardOf: cardOfOpenChat });
      if (event.type === 'file_changed') viewerPathChanged(event.path);
      applySubAgentEvent(event);
      if (event.type === 'new_session') void openCreatedSession(event.session_id);
      if (event.type === 'session_deleted') void sessionDeleted(event.session_id);
      if (event.type === 'turn_running' || event.type === 'user_message') void refreshSessions();
    });
    const offViewer = skald.on.viewer((event) => {
      if (event.type === 'open_file')
        showInViewer(event.path, event.tool_call_id, { sessionId: sessionsStore.getState().activeId });
      else viewerFileChanged(event.handle);
    });
    // The badge: what the Inbox shows (approvals, questions, and MCP servers' questions), refreshed on every Inbox or
    // MCP question event and every 10 s (docs/chat-ui.md "One source for the card and the Inbox").
    const badge = () =>
      void Promise.all([skald.inbox.list({}), skald.mcp.listElicitations({})]).then(
        ([i, m]) => setWaiting(i.total + m.elicitations.length),
        () => {},
      );
    badge();
    const offInbox = skald.on.inbox(badge);
    const offMcp = skald.on.mcp((event) => {
      if (event.type === 'elicitation' || event.type === 'elicitation_resolved') badge();
    });
    const timer = setInterval(badge, 10_000);
    // Back after the socket dropped (web shape): events were missed, so reload what is shown.
    const offConnection = onReconnect(() => {
      void chat.reload();
      void refreshSessions();
      badge();
    });
    return () => {
      offConnection();
      offChat();
      offViewer();
      offInbox();
      offMcp();
      clearInterval(timer);
    };
  }, []);

  // A model set up elsewhere (another window, the bridge) ends the guide, unless the person is in the middle of it.
  useEffect(() => {
    if (!firstRun || guideEngaged) return;
    const timer = setInterval(() => void checkFirstRun(), 1_500);
    return () => clearInterval(timer);
  }, [firstRun, guideEngaged]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = isMac ? e.metaKey : e.ctrlKey;
      if (mod && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setView('chat');
        setSwitcherOpen(true);
      } else if (mod && e.key === ',') {
        e.preventDefault();
        setView('settings');
      } else if (e.key === 'Escape' && !e.defaultPrevented && chat.store.getState().running && !switcherOpen) {
        e.preventDefault();
        void chat.stop();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [switcherOpen]);

  const mod = isMac ? '⌘' : 'Ctrl';
  return (
    <div className="app">
      {view === 'chat' && !firstRun && activeId !== null && <SkipToComposer />}
      <LiveAnnouncer />
      <ReconnectingBar />
      <header className="app-header">
        <span className="brand">Skald</span>
        <nav className="nav" aria-label="Pages">
          <button
            className={`nav-tab ${view === 'chat' ? 'is-active' : ''}`}
            aria-current={view === 'chat' ? 'page' : undefined}
            data-testid="nav-chat"
            onClick={() => setView('chat')}
          >
            Chat
          </button>
          <button
            className={`nav-tab ${view === 'security' ? 'is-active' : ''}`}
            aria-current={view === 'security' ? 'page' : undefined}
            data-testid="open-security"
            {...preloadOn(SecurityPage)}
            onClick={() => setView('security')}
          >
            Security
          </button>
          <button
            className={`nav-tab ${view === 'schedules' ? 'is-active' : ''}`}
            aria-current={view === 'schedules' ? 'page' : undefined}
            data-testid="open-schedules"
            {...preloadOn(SchedulesPage)}
            onClick={() => setView('schedules')}
          >
            Schedules
          </button>
        </nav>
        {view === 'chat' && info && <SessionDirectory fallback={info.workspaceDir} />}
        {error && <span className="error">{error}</span>}
        <span className="header-spacer" />
        {info && (
          <span className="muted small" data-testid="app-info" title={`Workspace: ${info.workspaceDir}`}>
            {info.shape} · v{info.version}
          </span>
        )}
        {view === 'chat' && layout.viewer === 'overlay' && viewerHidden && (
          <button
            className="nav-tab"
            data-testid="viewer-show"
            onClick={(e) => (showViewer(), focusViewerFrom(e.currentTarget))}
            aria-label={`Show the viewer, ${viewerTabs} open`}
          >
            Viewer ({viewerTabs})
          </button>
        )}
        <button
          className="nav-tab"
          data-testid="open-inbox"
          {...preloadOn(InboxPanel)}
          onClick={() => setInboxOpen(true)}
          aria-label={waiting ? `Inbox, ${waiting} waiting` : 'Inbox'}
        >
          Inbox{waiting ? ` (${waiting})` : ''}
        </button>
        <button
          className={`nav-tab ${view === 'settings' ? 'is-active' : ''}`}
          aria-current={view === 'settings' ? 'page' : undefined}
          data-testid="open-settings"
          {...preloadOn(SettingsPage)}
          onClick={() => setView('settings')}
          title={`Settings (${mod}+,)`}
        >
          Settings
        </button>
      </header>
      <Suspense fallback={null}>
        {inboxOpen && <InboxPanel onClose={() => setInboxOpen(false)} />}
        {switcherOpen && <SessionSwitcher onClose={() => setSwitcherOpen(false)} />}
      </Suspense>
      <main className="app-main">
        <RenderGuard what="This page" resetKey={view}>
          {view === 'security' ? (
            <Suspense fallback={pageLoading}>
              <SecurityPage />
            </Suspense>
          ) : view === 'schedules' ? (
            <Suspense fallback={pageLoading}>
              <SchedulesPage onOpenSession={(id) => (selectSession(id), setView('chat'))} />
            </Suspense>
          ) : view === 'settings' ? (
            <Suspense fallback={pageLoading}>
              <SettingsPage
                onClose={() => {
                  setView('chat');
                  modelsChanged();
                  void checkFirstRun();
                }}
              />
            </Suspense>
          ) : (
            <>
              {/* The chat's title is its heading for a screen reader (the other pages show theirs). */}
              {!firstRun && <h1 className="sr-only">{`Chat: ${chatTitle || 'New chat'}`}</h1>}
              {layout.list === 'full' ? <SessionList /> : <SessionRail onFind={() => setSwitcherOpen(true)} />}
              {FirstRun === 'loading' ? (
                <section className="chat" />
              ) : FirstRun ? (
                <Suspense fallback={<section className="chat" />}>
                  <FirstRun
                    onEngaged={() => setGuideEngaged(true)}
                    onDone={() => (setFirstRun(null), setGuideEngaged(false))}
                  />
                </Suspense>
              ) : activeId !== null ? (
                <RenderGuard what="This chat" resetKey={activeId}>
                  <ChatView sessionId={activeId} />
                </RenderGuard>
              ) : (
                <section className="chat" />
              )}
              <RenderGuard what="The viewer">
                {layout.viewer !== 'none' && (
                  <ViewerPanel
                    placement={{
                      mode: layout.viewer,
                      width: layout.viewerWidth,
                      maxWidth: layout.viewerMaxWidth,
                    }}
                  />
                )}
              </RenderGuard>
            </>
          )}
        </RenderGuard>
      </main>
    </div>
  );
}
