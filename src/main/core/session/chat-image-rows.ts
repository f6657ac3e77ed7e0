/**
 * The `chat_images` table's statements (db/migrations/119-chat-images.ts; docs/chat-ui.md "Images in a message").
 * SessionStore is the one writer: it inserts a message's images in the message's own transaction and moves them with
 * a queued message when the turn takes it in. Reads go by a range of message ids (the one index), filtered to the
 * session, so a page or a context reads only its own messages' images.
 */
import type { ChatImage } from '../../../shared/contract/chat';
import { imagesProblem, sniffImageType, type ChatImageType } from '../../../shared/chat-images';
import { BridgeError } from '../../../shared/contract/define';
import type { Db } from '../db/database';
import type { NewChatImage } from './session-rows';

export class ChatImageRows {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      insert: db.prepare('INSERT INTO chat_images (session_id, message_id, name, media_type, size, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      move: db.prepare('UPDATE chat_images SET message_id = ? WHERE message_id = ?'),
      listed: db.prepare('SELECT id, message_id, name, media_type, size FROM chat_images WHERE message_id BETWEEN ? AND ? AND session_id = ? ORDER BY id'),
      one: db.prepare('SELECT media_type, data FROM chat_images WHERE id = ?'),
    };
  }

  /** Only inside SessionStore's transaction of the message. */
  insert(sessionId: number, messageId: number, images: readonly NewChatImage[], now: number): void {
    for (const image of images) this.q.insert.run(sessionId, messageId, image.name, image.mediaType, image.bytes.byteLength, image.bytes, now);
  }

  /** Only inside SessionStore's transaction that re-inserts a queued message. */
  move(fromMessageId: number, toMessageId: number): void {
    this.q.move.run(toMessageId, fromMessageId);
  }

  /** The images of the messages `firstId..lastId` of a session (no bytes), oldest first. */
  rows(sessionId: number, firstId: number, lastId: number): (ChatImage & { message_id: number })[] {
    return this.q.listed.all(firstId, lastId, sessionId) as (ChatImage & { message_id: number })[];
  }

  /** What the chat shows of the images of the messages `firstId..lastId` of a session, by message. */
  listed(sessionId: number, firstId: number, lastId: number): Map<number, ChatImage[]> {
    const byMessage = new Map<number, ChatImage[]>();
    for (const row of this.rows(sessionId, firstId, lastId)) {
      const list = byMessage.get(row.message_id) ?? [];
      list.push({ id: row.id, name: row.name, media_type: row.media_type, size: row.size });
      byMessage.set(row.message_id, list);
    }
    return byMessage;
  }

  /** A message's images as new ones (Edit sends the message again with them: session/replace-exchange.ts). */
  copiesOf(sessionId: number, messageId: number): NewChatImage[] {
    return this.rows(sessionId, messageId, messageId).map((row) => ({ name: row.name, mediaType: row.media_type, bytes: this.bytes(row.id) }));
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
    if (!mediaType) throw new BridgeError('bad_request', `${u.name || 'An image'} is not a PNG, JPEG, GIF or WebP image.`);
    return { name: u.name || 'image', mediaType, bytes };
  });
  const problem = imagesProblem(images.map((i) => ({ name: i.name, size: i.bytes.byteLength })));
  if (problem) throw new BridgeError('bad_request', problem);
  return images;
}
