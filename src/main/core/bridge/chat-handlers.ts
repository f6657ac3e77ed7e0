/** Handlers of the `chat:*` and `viewer:*` calls: thin adapters over the session manager. */
import { MAX_MESSAGE_CHARS } from '../../../shared/contract/chat';
import { BridgeError } from '../../../shared/contract/define';
import { ToolError } from '../tools/define-tool';
import { hasNoText, isPdf, pdfLines, pdfText } from '../tools/fs/pdf-text';
import type { EventBus } from '../events';
import type { ChatSearch } from '../session/chat-search';
import type { SessionManager } from '../session/session-manager';
import type { BridgeHandlers } from './handlers';

type ChatChannels =
  | 'chat:listSessions'
  | 'chat:createSession'
  | 'chat:renameSession'
  | 'chat:deleteSession'
  | 'chat:pinSession'
  | 'chat:history'
  | 'chat:send'
  | 'chat:image'
  | 'chat:pdfText'
  | 'chat:stop'
  | 'chat:retry'
  | 'chat:regenerate'
  | 'chat:editMessage'
  | 'chat:rerunTool'
  | 'chat:setModel'
  | 'chat:setWorkingDirectory'
  | 'chat:projectInstructions'
  | 'chat:subAgent'
  | 'chat:scratchpad'
  | 'chat:setScratchpadNote'
  | 'chat:search'
  | 'viewer:open';

export function createChatHandlers(
  sessions: SessionManager,
  events: EventBus,
  chatSearch: ChatSearch,
): Pick<BridgeHandlers, ChatChannels> {
  return {
    'chat:listSessions': ({ withNewestHistory }) => {
      const list = sessions.listSessions();
      const newest = withNewestHistory ? list[0] : undefined;
      return {
        sessions: list,
        newestHistory: newest ? { sessionId: newest.id, ...sessions.history(newest.id) } : undefined,
      };
    },
    'chat:createSession': ({ title }) => ({ id: sessions.createSession(title ?? '') }),
    'chat:renameSession': ({ sessionId, title }) => {
      sessions.history(sessionId, 0, 1); // throws not_found for an unknown session
      sessions.store.rename(sessionId, title);
      return { ok: true as const };
    },
    'chat:pinSession': ({ sessionId, pinned }) => {
      sessions.history(sessionId, 0, 1); // throws not_found for an unknown session
      sessions.store.setPinned(sessionId, pinned);
      return { ok: true as const };
    },
    'chat:deleteSession': ({ sessionId }) => (sessions.deleteSession(sessionId), { deleted: true as const }),
    'chat:history': ({ sessionId, beforeId, limit }) => sessions.history(sessionId, beforeId, limit),
    'chat:send': ({ sessionId, content, images }) => sessions.send(sessionId, content, images),
    'chat:image': ({ id }) => sessions.store.images.forChat(id),
    // On a worker thread of its own, as read_file reads a PDF (tools/fs/pdf-text.ts; docs/tools.md "PDF files").
    'chat:pdfText': async ({ name, data }) => {
      const bytes = Buffer.from(data, 'base64');
      if (!isPdf(bytes)) throw new BridgeError('bad_request', `${name} is not a PDF.`);
      try {
        const pdf = await pdfText(name, bytes, MAX_MESSAGE_CHARS + 1, new AbortController().signal);
        return { pages: pdf.pageCount, text: hasNoText(pdf) ? '' : pdfLines(pdf).join('\n') };
      } catch (error) {
        throw error instanceof ToolError ? new BridgeError('bad_request', error.message) : error;
      }
    },
    'chat:stop': ({ sessionId }) => ({ stopped: sessions.stop(sessionId) }),
    'chat:retry': ({ sessionId }) => (sessions.retry(sessionId), { started: true as const }),
    'chat:regenerate': ({ sessionId }) => (sessions.regenerate(sessionId), { started: true as const }),
    'chat:editMessage': ({ sessionId, messageId, content }) => sessions.editMessage(sessionId, messageId, content),
    'chat:rerunTool': ({ sessionId, toolCallId }) => ({ started: sessions.rerunTool(sessionId, toolCallId) }),
    'chat:setModel': ({ sessionId, model }) => sessions.setModel(sessionId, model),
    'chat:setWorkingDirectory': ({ sessionId, path }) => ({
      working_directory: sessions.setWorkingDirectory(sessionId, path),
    }),
    'chat:projectInstructions': ({ sessionId }) => {
      const found = sessions.instructions(sessionId);
      return { path: found?.path ?? null, included: found?.text != null, note: found?.note ?? null };
    },
    'chat:subAgent': ({ sessionId, parentToolCallId }) => sessions.subAgent(sessionId, parentToolCallId),
    'chat:scratchpad': ({ sessionId }) => ({ notes: sessions.scratchpad(sessionId) }),
    'chat:setScratchpadNote': ({ sessionId, key, value }) => ({
      notes: sessions.setScratchpadNote(sessionId, key, value),
    }),
    // On a worker thread with its own read-only connection (session/chat-search.ts; docs/ui.md "Searching chats").
    'chat:search': async ({ query }) => {
      const text = query.trim();
      if (!text) return { hits: [] };
      const hits = await chatSearch.search(text);
      if (!hits) throw new BridgeError('superseded', 'A newer search replaced this one.');
      return { hits };
    },
    // A user action (docs/viewer.md "How a file reaches the viewer"): opening a file in the viewer is not gated; the
    // viewer checks the path.
    'viewer:open': ({ path, toolCallId }) => {
      events.emit('viewer', { type: 'open_file', path, tool_call_id: toolCallId ?? null });
      return { ok: true as const };
    },
  };
}
