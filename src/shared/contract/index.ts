/**
 * The single source of every bridge call and event (docs/architecture.md "Layers"). Main registers one handler per key
 * of `calls`, the preload and the web client expose one function per key, and both parse with these schemas.
 * Domains live in their own files; this module only joins them.
 */
import type { z } from 'zod';
import { appCalls, AppEventSchema } from './app';
import { approvalCalls } from './approval';
import { ChatEventSchema } from './chat';
import { chatCalls } from './chat-calls';
import type { CallSpec } from './define';
import { inboxCalls, InboxEventSchema } from './inbox';
import { pluginCalls } from './plugins';
import { mcpCalls, McpEventSchema } from './mcp';
import { providerCalls } from './providers';
import { rewindCalls, RewindEventSchema } from './rewind';
import { sandboxCalls } from './sandbox';
import { schedulesCalls, SchedulesEventSchema } from './schedules';
import { viewerCalls, ViewerEventSchema } from './viewer';

export * from './define';
export * from './app';
export * from './approval';
export * from './chat';
export * from './chat-calls';
export * from './inbox';
export * from './plugins';
export * from './mcp';
export * from './providers';
export * from './rewind';
export * from './sandbox';
export * from './schedules';
export * from './viewer';

export const calls = {
  ...appCalls,
  ...approvalCalls,
  ...inboxCalls,
  ...chatCalls,
  ...viewerCalls,
  ...providerCalls,
  ...pluginCalls,
  ...mcpCalls,
  ...schedulesCalls,
  ...rewindCalls,
  ...sandboxCalls,
} as const satisfies Record<string, CallSpec>;

export const events = {
  app: AppEventSchema,
  chat: ChatEventSchema,
  inbox: InboxEventSchema,
  mcp: McpEventSchema,
  rewind: RewindEventSchema,
  schedules: SchedulesEventSchema,
  viewer: ViewerEventSchema,
} as const satisfies Record<string, z.ZodType>;

export type Calls = typeof calls;
export type CallChannel = keyof Calls;
export type CallRequest<C extends CallChannel> = z.input<Calls[C]['request']>;
export type CallResponse<C extends CallChannel> = z.output<Calls[C]['response']>;
export type ParsedRequest<C extends CallChannel> = z.output<Calls[C]['request']>;

export type Events = typeof events;
export type EventFamily = keyof Events;
export type EventPayload<F extends EventFamily> = z.output<Events[F]>;

export const callChannels = Object.keys(calls) as CallChannel[];
export const eventFamilies = Object.keys(events) as EventFamily[];
