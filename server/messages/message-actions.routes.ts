// Message actions (docs/behaviour.md §10.19): hide for oneself, forward, pin, and a message's read information. The
// domain logic is in hide-messages.ts, forward-messages.ts, message-pins.ts and message-info.ts.
import fp from 'fastify-plugin';
import { contractRoute } from '../http/contract-route';
import { createForwarder } from './forward-messages';
import { createMessageHider } from './hide-messages';
import { messageInfo } from './message-info';
import { createPins } from './message-pins';
import { createMessageWriter } from './message-writer';

export const messageActionsRoutes = fp(
  async (app) => {
    const { blocks, db, lists, metrics, realtime, push } = app;

    const hide = createMessageHider({ db, lists, realtime });
    contractRoute(app, 'hideMessages', async ({ userId, body }) => {
      await hide(userId, body.messageIds, body.on ?? true);
      return { ok: true as const };
    });

    const forward = createForwarder({ db, lists, realtime, push, blocks, writer: createMessageWriter(db) });
    contractRoute(app, 'forwardMessages', async ({ userId, body }) => {
      const answer = await forward(userId, body.messageIds, body.conversationIds);
      metrics.messagesSent.inc(answer.messages.length);
      return answer;
    });

    const pins = createPins({ db, lists, realtime });
    contractRoute(app, 'pinMessage', ({ userId, body }) => pins.pin(userId, body.messageId, body.on));
    contractRoute(app, 'pins', ({ userId, params }) => pins.list(userId, params.id));

    contractRoute(app, 'messageInfo', ({ userId, params }) => messageInfo(db, userId, params.id));
  },
  {
    name: 'message-actions-routes',
    encapsulate: true,
    decorators: { fastify: ['blocks', 'db', 'lists', 'metrics', 'realtime', 'push', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists', 'metrics', 'push', 'blocks'],
  },
);
