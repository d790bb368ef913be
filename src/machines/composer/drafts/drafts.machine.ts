// Keeps the composer's drafts in the browser (docs/behaviour.md §10.17): read once when the composer starts,
// written `DRAFTS.saveDelayMs` after the last change (a burst of keystrokes is one write), and at once when the
// page is hidden or goes away. Sign-out removes them (the offline cache's clear).
import { assign, enqueueActions, setup } from 'xstate';
import { DRAFTS } from '../../../contract/limits';
import { notWired, notWiredCallback } from '../../shared/not-wired';
import type {
  DraftMap,
  DraftsContext,
  DraftsEffects,
  DraftsEvent,
  DraftsInput,
  DraftsParentEvent,
} from './drafts.protocol';

export * from './drafts.protocol';

export const draftsMachine = setup({
  types: {
    context: {} as DraftsContext,
    events: {} as DraftsEvent,
    input: {} as DraftsInput,
  },
  actors: {
    loadDrafts: notWired('drafts.loadDrafts') as DraftsEffects['loadDrafts'],
    saveDrafts: notWired('drafts.saveDrafts') as DraftsEffects['saveDrafts'],
    pageExit: notWiredCallback('drafts.pageExit') as DraftsEffects['pageExit'],
  },
  delays: { saveDelay: DRAFTS.saveDelayMs },
  guards: {
    hasPending: ({ context }) => context.pending !== null,
  },
  actions: {
    keep: assign({
      pending: ({ event }) => (event.type === 'drafts.changed' ? event.drafts : null),
    }),
    // What is written is taken out of `pending`: a change during the write is written after it.
    takePending: assign({ writing: ({ context }) => context.pending ?? {}, pending: null }),
    // To the parent only when there is one: a graph test runs it alone.
    passLoaded: enqueueActions(({ event, self, enqueue }) => {
      const loaded: DraftsParentEvent = {
        type: 'drafts.loaded',
        drafts: (event as unknown as { output: DraftMap }).output,
      };
      if (self._parent) enqueue.sendParent(loaded);
    }),
  },
}).createMachine({
  id: 'drafts',
  context: ({ input }) => ({ userId: input.userId, pending: null, writing: {} }),
  invoke: { id: 'pageExit', src: 'pageExit' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadDrafts',
        src: 'loadDrafts',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: 'idle', actions: 'passLoaded' },
        // Nothing readable is kept: start empty.
        onError: 'idle',
      },
      // A change before the read ends is written after it (the composer merged what it had).
      on: { 'drafts.changed': { actions: 'keep' } },
    },
    idle: {
      always: { guard: 'hasPending', target: 'waiting' },
      on: { 'drafts.changed': { target: 'waiting', actions: 'keep' } },
    },
    waiting: {
      after: { saveDelay: 'saving' },
      on: {
        'drafts.changed': { target: 'waiting', reenter: true, actions: 'keep' },
        'drafts.flush': 'saving',
      },
    },
    saving: {
      entry: 'takePending',
      invoke: {
        id: 'saveDrafts',
        src: 'saveDrafts',
        input: ({ context }) => ({ userId: context.userId, drafts: context.writing }),
        onDone: 'idle',
        onError: 'idle',
      },
      on: { 'drafts.changed': { actions: 'keep' } },
    },
  },
});
