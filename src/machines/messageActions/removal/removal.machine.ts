// The removal actor (protocol: removal.protocol.ts): ask → wait for «Отменить» → send. It never touches the
// conversation's list: views leave `held` and `gone` messages out, and the server's message:deleted /
// message:hidden events take them away for good (a failure brings them back, as nothing was removed).
import { assign, setup } from 'xstate';
import { UNDO } from '../../../contract/limits';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import {
  type Removal,
  REMOVAL_FAILED,
  type RemovalContext,
  type RemovalEffects,
  type RemovalEvent,
} from './removal.protocol';

export * from './removal.protocol';

export const removalMachine = setup({
  types: { context: {} as RemovalContext, events: {} as RemovalEvent },
  actors: {
    commit: notWired('removal.commit') as RemovalEffects['commit'],
  },
  delays: { undoWindow: UNDO.windowMs },
  guards: {
    nextAsks: ({ context }) => context.next?.kind === 'ask',
    nextHides: ({ context }) => context.next?.kind === 'hide',
  },
  actions: {
    ask: assign(({ event }) => {
      if (event.type !== 'removal.ask') return {};
      return { asking: { conversationId: event.conversationId, messageIds: event.messageIds }, error: null };
    }),
    hide: assign(({ event }) => {
      if (event.type !== 'removal.hide') return {};
      return {
        held: { conversationId: event.conversationId, messageIds: event.messageIds, mode: 'me' as const },
        error: null,
      };
    }),
    choose: assign(({ context, event }) => {
      if (event.type !== 'removal.choose' || !context.asking) return {};
      return { held: { ...context.asking, mode: event.mode }, asking: null };
    }),
    queueNext: assign(({ event }) => {
      if (event.type === 'removal.ask') return { next: { kind: 'ask' as const, target: pick(event) } };
      if (event.type === 'removal.hide') return { next: { kind: 'hide' as const, target: pick(event) } };
      return {};
    }),
    takeNext: assign(({ context }) => {
      const n = context.next;
      if (!n) return {};
      if (n.kind === 'ask') return { asking: n.target, next: null };
      return { held: { ...n.target, mode: 'me' as const }, next: null };
    }),
    sent: assign(({ context }) => ({ gone: context.held, held: null })),
    failed: assign(({ event }) => ({
      held: null,
      error: failureMessage((event as { error?: unknown }).error, REMOVAL_FAILED),
    })),
    clearAsking: assign({ asking: null }),
    clearHeld: assign({ held: null }),
  },
}).createMachine({
  id: 'removal',
  context: { asking: null, held: null, gone: null, next: null, error: null },
  initial: 'idle',
  on: { 'removal.dismissError': { actions: assign({ error: null }) } },
  states: {
    idle: {
      on: {
        'removal.ask': { target: 'confirming', actions: 'ask' },
        'removal.hide': { target: 'waiting', actions: 'hide' },
      },
    },
    confirming: {
      tags: ['confirming'],
      on: {
        'removal.choose': { target: 'waiting', actions: 'choose' },
        'removal.cancel': { target: 'idle', actions: 'clearAsking' },
        // Another message's menu while asked: ask about that one instead.
        'removal.ask': { target: 'confirming', reenter: true, actions: 'ask' },
      },
    },
    waiting: {
      tags: ['undoable'],
      after: { undoWindow: 'committing' },
      on: {
        'removal.undo': { target: 'idle', actions: 'clearHeld' },
        // A new removal sends the waiting one now, then goes on with the new one.
        'removal.ask': { target: 'committing', actions: 'queueNext' },
        'removal.hide': { target: 'committing', actions: 'queueNext' },
      },
    },
    committing: {
      tags: ['sending'],
      on: { 'removal.ask': { actions: 'queueNext' }, 'removal.hide': { actions: 'queueNext' } },
      invoke: {
        id: 'commit',
        src: 'commit',
        input: ({ context }) => context.held as Removal,
        onDone: [
          { guard: 'nextAsks', target: 'confirming', actions: ['sent', 'takeNext'] },
          { guard: 'nextHides', target: 'waiting', actions: ['sent', 'takeNext'] },
          { target: 'idle', actions: 'sent' },
        ],
        onError: [
          { guard: 'nextAsks', target: 'confirming', actions: ['failed', 'takeNext'] },
          { guard: 'nextHides', target: 'waiting', actions: ['failed', 'takeNext'] },
          { target: 'idle', actions: 'failed' },
        ],
      },
    },
  },
});

function pick(e: { conversationId: string; messageIds: string[] }) {
  return { conversationId: e.conversationId, messageIds: e.messageIds };
}
