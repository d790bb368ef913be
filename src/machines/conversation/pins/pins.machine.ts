// The pin bar of the open conversation (docs/behaviour.md §2; the conversation actor's child 'pins'): the pinned
// messages fetched once at the start and kept current by conversation:pins (forwarded by the conversation), the
// pin the bar shows (a click jumps to it and shows the next older one, round to the newest), a pin deleted for
// everyone leaving the bar. «Закрепить» / «Открепить» go to the server one after another by the child queue
// 'pinning'; its answer is the new list (a failure changes nothing).
import { assertEvent, assign, enqueueActions, sendTo, setup } from 'xstate';
import type { Message } from '../../../contract/entities';
import { requestQueueMachine } from '../../realtime/index';
import { notWired } from '../../shared/not-wired';
import type { PinChange, PinsContext, PinsEffects, PinsEvent, PinsInput, PinsParentEvent } from './pins.protocol';

export * from './pins.protocol';

/** The fallback of the pinning queue's failures (not shown today). */
const PIN_FAILED = 'Не удалось закрепить сообщение';

export const pinsMachine = setup({
  types: {
    context: {} as PinsContext,
    events: {} as PinsEvent,
    input: {} as PinsInput,
    children: {} as { pinning: 'pinning'; fetch: 'fetchPins' },
  },
  actors: {
    fetchPins: notWired('pins.fetchPins') as PinsEffects['fetchPins'],
    pinning: requestQueueMachine,
  },
  guards: {
    hasPins: ({ context }) => context.pins.length > 0,
    /** A message of the history, or a pin (unpinned from the bar while not loaded). */
    shownToPin: ({ context, event }) => {
      assertEvent(event, 'pins.pin');
      return event.shown || context.pins.some((m) => m.id === event.messageId);
    },
  },
  actions: {
    takePins: assign(({ context }, pins: Message[]) => ({
      pins,
      pinCursor: pins.length && context.pinCursor < pins.length ? context.pinCursor : 0,
    })),
    removePin: assign(({ context, event }) => {
      assertEvent(event, 'pins.removed');
      const pins = context.pins.filter((m) => m.id !== event.messageId);
      return pins.length !== context.pins.length ? { pins, pinCursor: 0 } : {};
    }),
    queuePin: sendTo('pinning', ({ event }) => {
      assertEvent(event, 'pins.pin');
      return { type: 'queue.add' as const, request: { messageId: event.messageId, on: event.on } satisfies PinChange };
    }),
    pinned: assign(({ event }) => {
      assertEvent(event, 'queue.done');
      return { pins: event.output.pins, pinCursor: 0 };
    }),
    // The bar shows the pin a click goes to; then the next older one, and round to the newest.
    jump: enqueueActions(({ context, enqueue, self }) => {
      const pin = context.pins[context.pinCursor];
      if (!pin) return;
      if (self._parent) enqueue.sendParent({ type: 'pins.jumpTo', messageId: pin.id } satisfies PinsParentEvent);
      enqueue.assign({ pinCursor: (context.pinCursor + 1) % context.pins.length });
    }),
  },
}).createMachine({
  id: 'pins',
  context: ({ input }) => ({ conversationId: input.conversationId, pins: [], pinCursor: 0 }),
  invoke: [
    { id: 'pinning', src: 'pinning', input: { name: 'pinning', failed: PIN_FAILED } },
    // Once at the start; conversation:pins keeps them current.
    {
      id: 'fetch',
      src: 'fetchPins',
      input: ({ context }) => ({ conversationId: context.conversationId }),
      onDone: { actions: { type: 'takePins', params: ({ event }) => event.output.pins } },
      // Offline: no bar until conversation:pins says otherwise.
      onError: {},
    },
  ],
  on: {
    'pins.changed': { actions: { type: 'takePins', params: ({ event }) => event.pins } },
    'pins.removed': { actions: 'removePin' },
    'pins.pin': { guard: 'shownToPin', actions: 'queuePin' },
    'pins.jump': { guard: 'hasPins', actions: 'jump' },
    'queue.done': { actions: 'pinned' },
  },
});

export type PinsActorRef = import('xstate').ActorRefFrom<typeof pinsMachine>;
