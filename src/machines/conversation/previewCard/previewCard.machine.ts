// A message's link card (docs/behaviour.md §10.30 Link previews): see previewCard.protocol.ts. Loading until the
// server's card arrives, then shown or failed; the sender may remove a shown card (the server tells every member,
// this tab included, so a removal elsewhere ends here too). A refused removal keeps the card with the reason.
import { assertEvent, assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import {
  type PreviewCardContext,
  type PreviewCardEffects,
  type PreviewCardEvent,
  type PreviewCardInput,
  REMOVE_PREVIEW_FAILED,
} from './previewCard.protocol';

export * from './previewCard.protocol';

export const previewCardMachine = setup({
  types: {
    context: {} as PreviewCardContext,
    events: {} as PreviewCardEvent,
    input: {} as PreviewCardInput,
  },
  actors: {
    removePreview: notWired('previewCard.removePreview') as PreviewCardEffects['removePreview'],
  },
  guards: {
    isReady: ({ context }) => context.preview.status === 'ready',
    isFailed: ({ context }) => context.preview.status === 'failed',
    arrivedReady: ({ event }) => event.type === 'preview.arrived' && event.preview.status === 'ready',
    arrivedFailed: ({ event }) => event.type === 'preview.arrived' && event.preview.status === 'failed',
    mine: ({ context }) => context.mine,
  },
  actions: {
    take: assign({
      preview: ({ event }) => {
        assertEvent(event, 'preview.arrived');
        return event.preview;
      },
    }),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'previewCard',
  context: ({ input }) => ({ ...input, error: null }),
  initial: 'opening',
  states: {
    opening: {
      always: [{ guard: 'isReady', target: 'shown' }, { guard: 'isFailed', target: 'failed' }, { target: 'loading' }],
    },
    loading: {
      tags: ['loading'],
      on: {
        'preview.arrived': [
          { guard: 'arrivedReady', target: 'shown', actions: 'take' },
          { guard: 'arrivedFailed', target: 'failed', actions: 'take' },
        ],
        'preview.removed': 'removed',
      },
    },
    shown: {
      tags: ['shown'],
      on: {
        'preview.remove': { guard: 'mine', target: 'removing', actions: 'clearError' },
        // A newer fetch of the same link (the cache's day is over): the card follows it.
        'preview.arrived': [
          { guard: 'arrivedReady', actions: 'take' },
          { guard: 'arrivedFailed', target: 'failed', actions: 'take' },
        ],
        'preview.removed': 'removed',
      },
    },
    removing: {
      tags: ['shown', 'busy'],
      invoke: {
        id: 'removePreview',
        src: 'removePreview',
        input: ({ context }) => ({ messageId: context.messageId }),
        onDone: 'removed',
        onError: {
          target: 'shown',
          actions: assign({ error: ({ event }) => failureMessage(event.error, REMOVE_PREVIEW_FAILED) }),
        },
      },
      on: { 'preview.removed': 'removed' },
    },
    failed: {
      on: { 'preview.removed': 'removed' },
    },
    // Not final: the child stays, so a page that still lists the card (before the server's word) spawns none again.
    removed: {},
  },
});

export type PreviewCardMachine = typeof previewCardMachine;
