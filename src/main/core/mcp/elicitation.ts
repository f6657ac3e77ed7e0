/**
 * Elicitation: an MCP server asks the person for input during a call (docs/mcp.md "Elicitation"). Each request
 * becomes a card (chat and Inbox) showing the server's schema as a form; fields whose name, title, description or
 * format look like a secret are masked. The person accepts (with values), declines or cancels; after
 * `ELICITATION_DEADLINE_MS` it is cancelled. The values go back to the server and nowhere else: they are not
 * logged, not stored, not put in an event, and never reach the model (the call's result is whatever the server
 * returns). Only a flat object of primitive fields is accepted, as the protocol allows.
 */
import { randomUUID } from 'node:crypto';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationView, McpEvent } from '../../../shared/contract/mcp';
import type { ElicitationRequest } from './connection';

export const ELICITATION_DEADLINE_MS = 5 * 60_000;
/** Matched against a field's name and title. */
const SENSITIVE_NAME = /pass(word|phrase)?|secret|token|api[-_ ]?key|credential|\bpin\b|\botp\b|private[-_ ]?key/i;
/** Matched against its description, which often *mentions* sensitive things ("do not enter your PIN"): strong words only. */
const SENSITIVE_DESCRIPTION = /\b(password|passphrase|secret|api[-_ ]?key|access token)\b/i;

type Value = string | number | boolean | string[];

interface Waiting {
  view: ElicitationView;
  settle: (result: ElicitResult) => void;
}

export function sensitiveFields(schema: Record<string, unknown>): string[] {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(props)
    .filter(([key, p]) => {
      if (p?.format === 'password' || p?.writeOnly === true) return true;
      if (SENSITIVE_NAME.test([key, typeof p?.title === 'string' ? p.title : ''].join(' '))) return true;
      return (
        typeof p?.description === 'string' &&
        SENSITIVE_DESCRIPTION.test(p.description) &&
        !/\b(not|never|don't)\b/i.test(p.description)
      );
    })
    .map(([key]) => key);
}

export class ElicitationBroker {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly emit: (event: McpEvent) => void,
    private readonly deadlineMs = ELICITATION_DEADLINE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  list(): ElicitationView[] {
    return [...this.waiting.values()].map((w) => w.view);
  }

  /** Registers the card and waits for the person; the server's abort or the deadline cancels it. */
  ask(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitResult> {
    const id = randomUUID();
    const view: ElicitationView = {
      id,
      server: request.server,
      sessionId: request.call?.sessionId ?? null,
      toolCallId: request.call?.toolCallId ?? null,
      message: request.message,
      schema: JSON.stringify(request.requestedSchema),
      sensitive: sensitiveFields(request.requestedSchema),
      deadline: this.now() + this.deadlineMs,
    };
    return new Promise<ElicitResult>((resolve) => {
      const timer = setTimeout(() => finish({ action: 'cancel' }), this.deadlineMs);
      const onAbort = () => finish({ action: 'cancel' });
      const finish = (result: ElicitResult) => {
        if (!this.waiting.delete(id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.emit({ type: 'elicitation_resolved', id, action: result.action });
        resolve(result);
      };
      this.waiting.set(id, { view, settle: finish });
      signal.addEventListener('abort', onAbort, { once: true });
      this.emit({ type: 'elicitation', elicitation: view });
    });
  }

  /** The person's answer. False when the request is gone (answered, expired, or its call ended). */
  resolve(id: string, action: 'accept' | 'decline' | 'cancel', content?: Record<string, Value>): boolean {
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    waiting.settle(action === 'accept' ? { action, content: content ?? {} } : { action });
    return true;
  }

  /** Cancels every open request (app exit). */
  cancelAll(): void {
    for (const w of [...this.waiting.values()]) w.settle({ action: 'cancel' });
  }
}
