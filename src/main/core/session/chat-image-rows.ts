/**
 * The `chat_images` table's statements (db/migrations/119-chat-images.ts, 121-tool-result-images.ts; docs/chat-ui.md
 * "Images in a message", "Images a tool returns"). SessionStore is the one writer: it inserts a message's images in
 * the message's own transaction and moves them with a queued message when the turn takes it in; a tool's images go
 * in with its result, under the message of the call, marked with the call's id. Reads go by a range of message ids
 * (the one index), filtered to the session, so a page or a context reads only its own messages' images.
 */
import type { ChatImage } from '../../../shared/contract/chat';
import { imagesProblem, sniffImageType, type ChatImageType } from '../../../shared/chat-images';
import { BridgeError } from '../../../shared/contract/define';
import type { Db } from '../db/database';
import type { NewChatImage } from '../db/session-rows';

/** An image's row without its bytes: `tool_call_id` null for a person's image, else the call that returned it. */
export type ImageRow = ChatImage & { message_id: number; tool_call_id: string | null };

/** A page's images: a person's by message id, the tools' by call id. */
export interface ListedImages {
  byMessage: Map<number, ChatImage[]>;
  byCall: Map<string, ChatImage[]>;
}

function pushTo<K>(map: Map<K, ChatImage[]>, key: K, image: ChatImage): void {
  const list = map.get(key);
  if (list) list.push(image);
  else map.set(key, [image]);
}

export class ChatImageRows {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      insert: db.prepare(
        'INSERT INTO chat_images (session_id, message_id, tool_call_id, name, media_type, size, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      move: db.prepare('UPDATE chat_images SET message_id = ? WHERE message_id = ?'),
      listed: db.prepare(
        'SELECT id, message_id, tool_call_id, name, media_type, size FROM chat_images WHERE message_id BETWEEN ? AND ? AND session_id = ? ORDER BY id',
      ),
      one: db.prepare('SELECT media_type, data FROM chat_images WHERE id = ?'),
    };
  }

  /** Only inside SessionStore's transaction of the message, or of the tool's result (`toolCallId`). */
  insert(
    sessionId: number,
    messageId: number,
    images: readonly NewChatImage[],
    now: number,
    toolCallId: string | null = null,
  ): void {
    for (const image of images)
      this.q.insert.run(
        sessionId,
        messageId,
        toolCallId,
        image.name,
        image.mediaType,
        image.bytes.byteLength,
        image.bytes,
        now,
      );
  }

  /** Only inside SessionStore's transaction that re-inserts a queued message. */
  move(fromMessageId: number, toMessageId: number): void {
    this.q.move.run(toMessageId, fromMessageId);
  }

  /** The images of the messages `firstId..lastId` of a session and of their calls (no bytes), oldest first. */
  rows(sessionId: number, firstId: number, lastId: number): ImageRow[] {
    return this.q.listed.all(firstId, lastId, sessionId) as ImageRow[];
  }

  /** What the chat shows of the images of the messages `firstId..lastId` of a session: a person's, and the calls'. */
  listed(sessionId: number, firstId: number, lastId: number): ListedImages {
    const listed: ListedImages = { byMessage: new Map(), byCall: new Map() };
    for (const row of this.rows(sessionId, firstId, lastId)) {
      const image: ChatImage = { id: row.id, name: row.name, media_type: row.media_type, size: row.size };
      if (row.tool_call_id === null) pushTo(listed.byMessage, row.message_id, image);
      else pushTo(listed.byCall, row.tool_call_id, image);
    }
    return listed;
  }

  /** A person's message's images as new ones (Edit sends the message again with them: session/replace-exchange.ts). */
  copiesOf(sessionId: number, messageId: number): NewChatImage[] {
    const own = this.rows(sessionId, messageId, messageId).filter((row) => row.tool_call_id === null);
    return own.map((row) => ({ name: row.name, mediaType: row.media_type, bytes: this.bytes(row.id) }));
  }

  /** One image's bytes (a model request's). */
  bytes(id: number): Buffer {
    return (this.q.one.get(id) as { data: Buffer }).data;
  }

  /** One image, for the chat to show (`chat:image`): its bytes as base64. */
  forChat(id: number): { media_type: ChatImageType; data: string } {
    const row = this.q.one.get(id) as { media_type: ChatImageType; data: Buffer } | undefined;
    if (!row) throw new BridgeError('not_found', 'No such image.');
    return { media_type: row.media_type, data: row.data.toString('base64') };
  }
}

/**
 * A message's images as the call carried them (base64), checked before anything is stored: each one's type is read
 * from its bytes (a name or a declared type is never trusted), and the sizes are held to src/shared/chat-images.ts.
 * A bad image refuses the whole message, saying which and why; nothing is written.
 */
export function checkedImages(uploads: readonly { name: string; data: string }[]): NewChatImage[] {
  const images = uploads.map((u) => {
    const bytes = Buffer.from(u.data, 'base64');
    const mediaType = sniffImageType(bytes);
    if (!mediaType)
      throw new BridgeError('bad_request', `${u.name || 'An image'} is not a PNG, JPEG, GIF or WebP image.`);
    return { name: u.name || 'image', mediaType, bytes };
  });
  const problem = imagesProblem(images.map((i) => ({ name: i.name, size: i.bytes.byteLength })));
  if (problem) throw new BridgeError('bad_request', problem);
  return images;
}
