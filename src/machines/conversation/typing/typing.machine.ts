// Typing indicators of one conversation (docs/behaviour.md §4; spawned by the conversation actor, systemId 'typing').
// Own typing: the first keystroke sends typing-on, 1.5 s without a keystroke (or a send) sends typing-off;
// both emits belong to the `signal` actor, whose cleanup also says typing-off when the conversation closes.
// Others' typing: the users typing now, shown as three dots that cycle every 500 ms, cleared when they stop
// or when their message arrives.
import { assertEvent, assign, fromCallback, setup } from 'xstate';
import { TIMINGS } from '../../../contract/limits';
import { listenToServer } from '../../realtime/index';
import { systemActor } from '../../shared/system';
import type { TypingContext, TypingEvent, TypingInput } from './typing.protocol';

export * from './typing.protocol';

export const typingServerEvents = listenToServer<TypingEvent>({
  'conversation:typing': (p) => ({
    type: 'typing.remote',
    conversationId: p.conversationId,
    userId: p.userId,
    typing: p.typing,
  }),
});

/** Typing-on when started, typing-off when stopped (the idle timeout, a send, or the conversation closing). */
export const typingSignal = fromCallback<{ type: string }, { conversationId: string }>(({ input, system }) => {
  const realtime = systemActor(system, 'realtime');
  const say = (typing: boolean) =>
    realtime?.send({
      type: 'realtime.emit',
      name: 'conversation:typing',
      payload: { conversationId: input.conversationId, typing },
    });
  say(true);
  return () => say(false);
});

type Remote = Extract<TypingEvent, { type: 'typing.remote' }>;
const isRemote = (event: TypingEvent): event is Remote => event.type === 'typing.remote';

export const typingMachine = setup({
  types: {
    context: {} as TypingContext,
    events: {} as TypingEvent,
    input: {} as TypingInput,
  },
  actors: { serverEvents: typingServerEvents, signal: typingSignal },
  delays: { typingIdle: TIMINGS.typingIdleMs, typingDots: TIMINGS.typingDotsMs },
  guards: {
    /** Someone else in this conversation started typing. */
    remoteStarts: ({ context, event }) =>
      isRemote(event) && event.typing && event.conversationId === context.conversationId && event.userId !== context.me,
    /** The last one typing stopped (by the event or by sending). */
    lastStops: ({ context, event }) => {
      const userId = isRemote(event)
        ? event.typing || event.conversationId !== context.conversationId
          ? null
          : event.userId
        : event.type === 'typing.remoteSent'
          ? event.userId
          : null;
      return userId !== null && context.typers.length === 1 && context.typers[0] === userId;
    },
  },
  actions: {
    addTyper: assign({
      typers: ({ context, event }) => {
        assertEvent(event, 'typing.remote');
        return context.typers.includes(event.userId) ? context.typers : [...context.typers, event.userId];
      },
    }),
    removeTyper: assign({
      typers: ({ context, event }) => {
        assertEvent(event, ['typing.remote', 'typing.remoteSent']);
        if (event.type === 'typing.remote' && event.conversationId !== context.conversationId) return context.typers;
        return context.typers.filter((id) => id !== event.userId);
      },
    }),
    resetDots: assign({ dots: 1 }),
    advanceDots: assign({ dots: ({ context }) => (context.dots % 3) + 1 }),
  },
}).createMachine({
  id: 'typing',
  context: ({ input }) => ({ conversationId: input.conversationId, me: input.userId, typers: [], dots: 1 }),
  invoke: { id: 'serverEvents', src: 'serverEvents' },
  type: 'parallel',
  states: {
    own: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'typing.keystroke': 'typing' },
        },
        typing: {
          invoke: { id: 'signal', src: 'signal', input: ({ context }) => ({ conversationId: context.conversationId }) },
          on: { 'typing.stop': 'idle' },
          initial: 'active',
          states: {
            active: {
              after: { typingIdle: '#typing.own.idle' },
              on: { 'typing.keystroke': { target: 'active', reenter: true } },
            },
          },
        },
      },
    },
    others: {
      initial: 'hidden',
      states: {
        hidden: {
          on: { 'typing.remote': { guard: 'remoteStarts', target: 'shown', actions: ['addTyper', 'resetDots'] } },
        },
        shown: {
          tags: ['othersTyping'],
          after: { typingDots: { target: 'shown', reenter: true, actions: 'advanceDots' } },
          on: {
            'typing.remote': [
              { guard: 'remoteStarts', actions: 'addTyper' },
              { guard: 'lastStops', target: 'hidden', actions: 'removeTyper' },
              { actions: 'removeTyper' },
            ],
            'typing.remoteSent': [
              { guard: 'lastStops', target: 'hidden', actions: 'removeTyper' },
              { actions: 'removeTyper' },
            ],
          },
        },
      },
    },
  },
});

export type TypingActorRef = import('xstate').ActorRefFrom<typeof typingMachine>;
