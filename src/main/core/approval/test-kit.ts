/**
 * Test fixtures for the approval domain (not shipped code paths): a real SQLite file in a temp folder, real
 * symlinks, the real services, and recorded events. Two layouts (`LAYOUTS`): the session works in the default
 * workspace inside the data folder, or in a folder the person chose outside it (docs/approval.md "Relative means the
 * working directory"); `workspace` is the session's working directory either way, so a suite run in both asserts
 * the same decisions for the same relative calls.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { InboxEvent } from '../../../shared/contract/inbox';
import { RunContextSchema, type RunContext } from '../../../shared/run-context';
import { closeDatabase, openDatabase, type Db } from '../db/database';
import { createBuiltinTools, createToolRegistry } from '../tools/index';
import { createApprovalServices, type ApprovalServices } from './index';
import type { GateCall } from './gate-port';
import type { SessionApprovalEvent } from './approval-card';

/** The built-in and session tools, whose traits the gate reads (docs/tools.md "One tool shape"). */
export const knownTools = createToolRegistry(createBuiltinTools({ requestRestart: () => {} }));
export const traitsOf = (name: string) => knownTools.traitsOf(name);

/** Where the session's working directory is: the default `<data>/workspace`, or a chosen folder outside the data folder. */
export const LAYOUTS = ['default workspace', 'chosen folder'] as const;
export type Layout = (typeof LAYOUTS)[number];

export interface Kit extends ApprovalServices {
  db: Db;
  root: string;
  dataDir: string;
  layout: Layout;
  /** The session's working directory (the call's workspace). */
  workspace: string;
  /** The app's default workspace, `<data>/workspace` (the same folder as `workspace` in the default layout). */
  defaultWorkspace: string;
  outside: string;
  sessionEvents: { sessionId: number; event: SessionApprovalEvent }[];
  inboxEvents: InboxEvent[];
  clock: { now: number };
  call(toolName: string, args?: Record<string, unknown>, extra?: Partial<GateCall>): GateCall;
  rc(partial?: Partial<RunContext>): RunContext;
  file(rel: string, content?: string): string;
  link(rel: string, target: string): string;
  session(opts?: { source?: string; title?: string; agentId?: string }): number;
  toolRow(sessionId: number, toolCallId: string, name: string, args: Record<string, unknown>): void;
  close(): void;
}

export async function makeKit(
  opts: { approvalTimeoutMs?: number | null; shellGrammar?: 'now' | 'background'; layout?: Layout } = {},
): Promise<Kit> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'skald-approval-')));
  const dataDir = join(root, 'data');
  const defaultWorkspace = join(dataDir, 'workspace');
  const layout = opts.layout ?? 'default workspace';
  const workspace = layout === 'default workspace' ? defaultWorkspace : join(root, 'chosen');
  const outside = join(root, 'outside');
  mkdirSync(defaultWorkspace, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  mkdirSync(outside, { recursive: true });
  const dbFile = join(dataDir, 'skald.db');
  const db = openDatabase({ file: dbFile });
  const sessionEvents: Kit['sessionEvents'] = [];
  const inboxEvents: InboxEvent[] = [];
  const clock = { now: 1_800_000_000_000 };
  const services = await createApprovalServices({
    db,
    // The tool rows' status as the session store writes it: the kit writes its rows itself (`toolRow` below), so the
    // approval room's fixtures need not import the session (the tests that build a core use the store itself).
    toolRows: {
      setToolStatus: (toolCallId, status) =>
        void db
          .prepare('UPDATE chat_llm_tools SET status = ?, updated_at = ? WHERE tool_call_id = ?')
          .run(status, Date.now(), toolCallId),
    },
    workspaceDir: defaultWorkspace,
    dataDir,
    dbFile,
    traitsOf,
    emitSession: (sessionId, event) => sessionEvents.push({ sessionId, event }),
    emitInbox: (event) => inboxEvents.push(event),
    approvalTimeoutMs: opts.approvalTimeoutMs ?? null,
    shellGrammar: opts.shellGrammar,
    now: () => clock.now,
  });
  const rc = (partial: Partial<RunContext> = {}) => ({ ...RunContextSchema.parse({}), ...partial });
  return {
    ...services,
    db,
    root,
    dataDir,
    layout,
    workspace,
    defaultWorkspace,
    outside,
    sessionEvents,
    inboxEvents,
    clock,
    rc,
    call: (toolName, args = {}, extra = {}) => ({
      sessionId: 1,
      agentId: 'main',
      source: 'web',
      toolName,
      category: null,
      args,
      runContext: rc(),
      workingDir: workspace,
      ...extra,
    }),
    file(rel, content = 'x') {
      const abs = join(workspace, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
      return abs;
    },
    link(rel, target) {
      const abs = join(workspace, rel);
      mkdirSync(dirname(abs), { recursive: true });
      symlinkSync(target, abs);
      return abs;
    },
    session({ source = 'web', title = 'A session', agentId = 'main' } = {}) {
      const now = Date.now();
      return Number(
        db
          .prepare('INSERT INTO chat_sessions (source, agent_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
          .run(source, agentId, title, now, now).lastInsertRowid,
      );
    },
    toolRow(sessionId, toolCallId, name, args) {
      const now = Date.now();
      db.prepare(`INSERT INTO chat_llm_tools (tool_call_id, session_id, name, arguments, effective_arguments, status, created_at, updated_at)
                  VALUES (?, ?, ?, ?, ?, 'running', ?, ?)`).run(
        toolCallId,
        sessionId,
        name,
        JSON.stringify(args),
        JSON.stringify(args),
        now,
        now,
      );
    },
    close() {
      closeDatabase(db);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
