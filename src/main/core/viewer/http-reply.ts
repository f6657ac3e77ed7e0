/** The shape-neutral reply of the viewer's routes (both shapes turn it into their own response), and refusals. */
import { ViewerRefusal } from './read-policy';

export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

const STATUS_OF: Record<ViewerRefusal['code'], number> = {
  refused: 403,
  missing: 404,
  not_file: 415,
  too_large: 413,
  unreadable: 500,
  changed: 409,
};

export function refusalReply(error: unknown): HttpReply {
  const refusal =
    error instanceof ViewerRefusal
      ? error
      : new ViewerRefusal('unreadable', `The file cannot be read (${String(error)}).`);
  return {
    status: STATUS_OF[refusal.code],
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-skald-error': refusal.code },
    body: refusal.message,
  };
}
