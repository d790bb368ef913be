import { expect, it } from 'vitest';
import { createActor, createMachine, emit } from 'xstate';
import { message } from '../../../../tests/client/chat-fixtures';
import { composerReports } from './composer-reports';

it('the open conversation hears the composer: every delivery (a file one refreshes it) and sends in it only', () => {
  const heard: string[] = [];
  const composer = createMachine({
    on: {
      delivered: { actions: emit(({ event }) => ({ ...event, type: 'composer.delivered' })) },
      sent: { actions: emit(({ event }) => ({ ...event, type: 'composer.sent' })) },
    },
  });
  const app = createActor(
    createMachine({
      invoke: [
        { id: 'composer', systemId: 'composer', src: composer },
        { id: 'reports', src: composerReports, input: { conversationId: 'c1' } },
      ],
      on: { '*': { actions: ({ event }) => heard.push(event.type) } },
    }),
  ).start();
  const c = app.system.get('composer');
  c.send({ type: 'delivered', message: message('m3', 'me', 4), refresh: true });
  c.send({ type: 'sent', conversationId: 'c2' });
  c.send({ type: 'sent', conversationId: 'c1' });
  expect(heard).toEqual(['conversation.messageSent', 'conversation.refresh', 'conversation.ownSent']);
  app.stop();
});
