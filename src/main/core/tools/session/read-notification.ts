/**
 * `read_notification`: the name under which batched notifications reach the home session (notifications.ts
 * writes them as a finished call of this tool, which resumes the session). Called directly by the model it has
 * nothing to deliver: notifications never wait to be fetched, so the answer is an empty JSON array.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineInterfaceTool } from './interface-tool';

export const readNotificationTool = defineInterfaceTool({
  name: TN.READ_NOTIFICATION,
  description:
    'Notifications arrive by themselves as results of this tool; calling it returns [] (nothing is waiting).',
  input: z.object({}),
  kind: 'read',
  defaultDecision: 'allow',
  card: 'delivered',
  // A batch delivered by itself (docs/scheduler.md "Delivery": arguments `{"delivered": true}`).
  describe: (args, _length, name) => (args.delivered === true ? `${name}: notifications arrived` : name),
  run() {
    return { kind: 'completed', result: '[]', resultType: 'json' };
  },
});
