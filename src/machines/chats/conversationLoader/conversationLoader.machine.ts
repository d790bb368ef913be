// The open conversation's code and actor (docs/behaviour.md §2), the chats actor's child 'loader' (invoked for the
// whole page, so the code fetched once is kept across sign-outs). The conversation's machines are not in the first
// bundle: fetched when a conversation is opened or about to be (`loader.prepare`: the list was touched, the service
// worker has them), then kept; a conversation opened before they are here waits for them ('waiting'), and a failed
// fetch is shown with a retry ('failed'). Once they are here, an opening starts the conversation's actor at once.
import { assertEvent, assign, enqueueActions, setup, stopChild } from 'xstate';
import { loadOwnedNotWired, type OwnedCode, ownedCodeRegion, spawnOwned } from '../../shared/owned-code';
import { present } from '../../shared/present';
import {
  type ConversationLoaderContext,
  type ConversationLoaderEffects,
  type ConversationLoaderEvent,
  LOADER_TAGS,
} from './conversationLoader.protocol';

export * from './conversationLoader.protocol';

/** The protocol's context, and the conversation's machines once fetched. */
type Context = ConversationLoaderContext & { code: OwnedCode<'conversation'> | null };

export const conversationLoaderMachine = setup({
  types: {
    context: {} as Context,
    events: {} as ConversationLoaderEvent,
  },
  actors: {
    loadOwned: loadOwnedNotWired('conversationLoader') as ConversationLoaderEffects['loadOwned'],
  },
  guards: {
    codeHere: ({ context }) => context.code !== null,
  },
  actions: {
    keepCode: assign({ code: (_, code: OwnedCode<'conversation'>) => code }),
    takeOpening: assign({
      opening: ({ event }) => {
        assertEvent(event, 'loader.open');
        return event.conversation;
      },
    }),
    forget: assign({ opening: null }),
    /** A search result in the conversation whose actor is still to start: it starts there. */
    aimAt: assign({
      opening: ({ context, event }) => {
        assertEvent(event, 'loader.again');
        const jumpTo = event.messageId ?? context.opening?.jumpTo ?? null;
        return context.opening && { ...context.opening, jumpTo };
      },
    }),
    startConversation: enqueueActions(({ context, enqueue }) => {
      const input = present(context.opening, 'opening');
      enqueue(spawnOwned(present(context.code, 'code').conversation, 'conversation', input));
    }),
    stopConversation: stopChild('conversation'),
    /** A search result in the conversation already open: its actor jumps there as to a quote. */
    jumpInOpen: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'loader.again');
      if (event.messageId) enqueue.sendTo('conversation', { type: 'conversation.jumpTo', messageId: event.messageId });
    }),
  },
}).createMachine({
  id: 'conversationLoader',
  context: { opening: null, code: null },
  type: 'parallel',
  states: {
    // The open conversation's machines: fetched once, when a conversation is opened or about to be.
    // Tried again after a failure on the next opening or `loader.prepare`.
    code: ownedCodeRegion<OwnedCode<'conversation'>>(['loader.prepare', 'loader.open', 'loader.again']),
    pane: {
      initial: 'closed',
      on: {
        // Not `reenter`: re-entering the region would take the code region's transitions away.
        'loader.open': { target: '.waiting', actions: 'takeOpening' },
        'loader.close': { target: '.closed', actions: 'forget' },
      },
      states: {
        closed: {},
        // Its machines are on their way (the first opening before they are here); the view waits.
        waiting: {
          always: { guard: 'codeHere', target: 'running' },
          on: {
            'xstate.error.actor.loadOwned': 'failed',
            'loader.again': { actions: 'aimAt' },
          },
        },
        // They could not be fetched: the view offers a retry (`loader.prepare`), as does opening it again.
        failed: {
          tags: [LOADER_TAGS.conversationFailed],
          on: { 'loader.prepare': 'waiting', 'loader.again': { target: 'waiting', actions: 'aimAt' } },
        },
        running: {
          entry: 'startConversation',
          exit: 'stopConversation',
          on: { 'loader.again': { actions: 'jumpInOpen' } },
        },
      },
    },
  },
});

export type ConversationLoaderActorRef = import('xstate').ActorRefFrom<typeof conversationLoaderMachine>;
