// A thread reply deleted elsewhere: message:deleted carries the root's new summary, and the open timeline's root
// shows the new «N ответов» at once (the real server-event mapping, a stand-in for the realtime actor).
import { expect, it } from 'vitest';
import { createActor, createMachine, emit, fromCallback, fromPromise, waitFor } from 'xstate';
import { message } from '../../../../tests/client/chat-fixtures';
import { conversationMachine } from './conversation.machine';
import { conversationServerEvents } from './server';

const quiet = fromCallback(() => () => {});
const child = createMachine({});
const THEN = '2025-03-01T11:00:00.000Z';

it("a reply's deletion changes its root's summary; a plain deletion removes the message", async () => {
  const root = message('m1', 'u2', 10, { thread: { replyCount: 2, lastReplyAt: THEN, repliers: ['u3', 'u2'] } });
  const other = message('m2', 'me', 11);
  const conversation = conversationMachine.provide({
    actors: {
      serverEvents: conversationServerEvents,
      room: quiet,
      fetchPage: fromPromise(async () => ({ messages: [root, other], hasMore: false })),
      deletions: child,
      reactions: child,
      pins: child,
      pageBack: child,
      typing: child,
      readReceipts: child,
      messageEdit: child,
    } as never,
  });
  const realtime = createMachine({
    types: {} as { events: { type: 'fire'; name: string; payload: object } },
    on: {
      fire: { actions: emit(({ event }) => ({ type: 'server.event', name: event.name, payload: event.payload })) },
    },
  });
  const app = createActor(
    createMachine({
      invoke: [
        { id: 'realtime', systemId: 'realtime', src: realtime },
        {
          id: 'conversation',
          systemId: 'conversation',
          src: conversation,
          input: { conversationId: 'c1', userId: 'me' },
        },
      ],
    }),
  ).start();
  const actor = app.system.get('conversation');
  await waitFor(actor, (s) => s.matches('ready'));
  const fire = (payload: object) => app.system.get('realtime').send({ type: 'fire', name: 'message:deleted', payload });
  const summary = { replyCount: 1, lastReplyAt: THEN, repliers: ['u2'] };
  fire({ conversationId: 'c1', messageId: 'r2', threadRootId: 'm1', thread: summary });
  const shown = () => actor.getSnapshot().context.messages;
  expect(shown().find((m: { id: string }) => m.id === 'm1')?.thread).toEqual(summary);
  // Another conversation's reply changes nothing here.
  fire({ conversationId: 'c2', messageId: 'r9', threadRootId: 'm1', thread: { ...summary, replyCount: 7 } });
  expect(shown().find((m: { id: string }) => m.id === 'm1')?.thread).toEqual(summary);
  fire({ conversationId: 'c1', messageId: 'm2' });
  expect(shown().map((m: { id: string }) => m.id)).toEqual(['m1']);
  app.stop();
});
