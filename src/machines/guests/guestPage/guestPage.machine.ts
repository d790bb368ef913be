// The guest link's page (protocol: guestPage.protocol.ts; docs/behaviour.md §10.40). GET /api/guest/:code says who
// invites; a dead link (404, 410, turned off: 403, malformed: 400) ends the page with the server's message, no
// answer offers «Повторить». The name is checked as the server checks it; «Попросить войти» knocks (429: the link
// is flooded, try again). In the lobby the guest's socket (`door`) tells the knock's state: let in → the media token
// → the call; turned away, removed or the link gone → the page ends saying so. «Отменить» stops waiting. When the
// call is over (the members left) the page says «Звонок завершён» and «Попросить войти снова» knocks anew.
import { assertEvent, assign, setup } from 'xstate';
import { failureMessage, RequestFailure } from '../../../contract/failure';
import { CALL_OVER } from '../../../contract/guest-rules';
import { notWired, notWiredCallback } from '../../shared/not-wired';
import {
  GUEST_TAGS,
  GUEST_TEXTS,
  type GuestKnock,
  guestNameProblem,
  type GuestPageContext,
  type GuestPageEffects,
  type GuestPageEvent,
  type GuestPageInput,
} from './guestPage.protocol';

export * from './guestPage.protocol';

const statusOf = (event: unknown) => {
  const error = (event as { error?: unknown }).error;
  return error instanceof RequestFailure ? error.status : null;
};
const stateIs =
  (state: string) =>
  ({ event }: { event: GuestPageEvent }) =>
    event.type === 'guest.state' && event.state === state;

export const guestPageMachine = setup({
  types: { context: {} as GuestPageContext, events: {} as GuestPageEvent, input: {} as GuestPageInput },
  actors: {
    loadInfo: notWired('guestPage.loadInfo') as GuestPageEffects['loadInfo'],
    knock: notWired('guestPage.knock') as GuestPageEffects['knock'],
    door: notWiredCallback('guestPage.door') as GuestPageEffects['door'],
    fetchToken: notWired('guestPage.fetchToken') as GuestPageEffects['fetchToken'],
    leave: notWired('guestPage.leave') as GuestPageEffects['leave'],
  },
  guards: {
    /** The link is unknown, dead, turned off or malformed: nothing on this page can help. */
    deadLink: ({ event }) => [400, 403, 404, 410].includes(statusOf(event) ?? 0),
    flooded: ({ event }) => statusOf(event) === 429,
    /** The token route says the call is over (its members left before the guest got in). */
    callOverRefused: ({ event }) => {
      const error = (event as { error?: unknown }).error;
      return error instanceof RequestFailure && error.status === 410 && error.serverMessage === CALL_OVER;
    },
    /** Refused by the token route for good (turned away, removed, the link died). */
    refused: ({ event }) => [403, 404, 410].includes(statusOf(event) ?? 0),
    nameOk: ({ event }) => {
      assertEvent(event, 'guest.knock');
      return guestNameProblem(event.name) === null;
    },
    admitted: stateIs('admitted'),
    /** Admitted at a secret chat's link, but the sealed key did not open: the call cannot be decrypted. */
    keyFailed: ({ event }) => event.type === 'guest.state' && event.state === 'admitted' && event.keyFailed === true,
    newerKey: ({ context, event }) => event.type === 'guest.key' && event.key.epoch > (context.callKey?.epoch ?? -1),
    denied: stateIs('denied'),
    removed: stateIs('removed'),
    gone: stateIs('gone'),
    callOver: stateIs('ended'),
  },
}).createMachine({
  id: 'guestPage',
  context: ({ input }) => ({
    code: input.code,
    info: null,
    name: '',
    video: true,
    audio: true,
    knock: null,
    fragment: input.fragment ?? '',
    media: null,
    callKey: null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: [GUEST_TAGS.busy],
      invoke: {
        id: 'loadInfo',
        src: 'loadInfo',
        input: ({ context }) => ({ code: context.code }),
        onDone: { target: 'ready', actions: assign({ info: ({ event }) => event.output, error: null }) },
        onError: [
          {
            guard: 'deadLink',
            target: 'ended',
            actions: assign({ error: ({ event }) => failureMessage(event.error, GUEST_TEXTS.gone) }),
          },
          {
            target: 'unreachable',
            actions: assign({ error: ({ event }) => failureMessage(event.error, GUEST_TEXTS.loadFailed) }),
          },
        ],
      },
    },
    unreachable: { on: { 'guest.retry': 'loading' } },
    ready: {
      tags: [GUEST_TAGS.form],
      on: {
        'guest.knock': [
          {
            guard: 'nameOk',
            target: 'knocking',
            actions: assign(({ event }) => ({
              name: event.name.trim(),
              video: event.video,
              audio: event.audio,
              error: null,
            })),
          },
          { actions: assign({ error: ({ event }) => guestNameProblem(event.name) }) },
        ],
      },
    },
    knocking: {
      tags: [GUEST_TAGS.form, GUEST_TAGS.busy],
      invoke: {
        id: 'knock',
        src: 'knock',
        input: ({ context }) => ({
          code: context.code,
          name: context.name,
          encrypted: context.info?.encrypted === true,
          fragment: context.fragment,
        }),
        onDone: { target: 'door', actions: assign({ knock: ({ event }) => event.output }) },
        onError: [
          {
            guard: 'flooded',
            target: 'ready',
            actions: assign({ error: ({ event }) => failureMessage(event.error, GUEST_TEXTS.knockFailed) }),
          },
          {
            guard: 'deadLink',
            target: 'ended',
            actions: assign({ error: ({ event }) => failureMessage(event.error, GUEST_TEXTS.gone) }),
          },
          {
            target: 'ready',
            actions: assign({ error: ({ event }) => failureMessage(event.error, GUEST_TEXTS.knockFailed) }),
          },
        ],
      },
    },
    // The knock exists: the guest's socket tells its state until the page ends or the guest gives up.
    door: {
      invoke: {
        id: 'door',
        src: 'door',
        input: ({ context }) => context.knock as GuestKnock,
      },
      on: {
        'guest.state': [
          { guard: 'denied', target: 'ended', actions: assign({ error: GUEST_TEXTS.denied }) },
          {
            guard: 'removed',
            target: 'ended',
            actions: assign({ error: GUEST_TEXTS.removed, media: null, callKey: null }),
          },
          { guard: 'gone', target: 'ended', actions: assign({ error: GUEST_TEXTS.gone, media: null, callKey: null }) },
          {
            guard: 'callOver',
            target: 'over',
            actions: assign({ error: GUEST_TEXTS.callOver, media: null, callKey: null }),
          },
        ],
        'guest.key': { guard: 'newerKey', actions: assign({ callKey: ({ event }) => event.key }) },
      },
      initial: 'waiting',
      states: {
        waiting: {
          tags: [GUEST_TAGS.lobby],
          on: {
            'guest.state': [
              { guard: 'keyFailed', target: '#guestPage.ended', actions: assign({ error: GUEST_TEXTS.keyFailed }) },
              {
                guard: 'admitted',
                target: 'joining',
                actions: assign({ callKey: ({ event }) => (event.type === 'guest.state' && event.key) || null }),
              },
            ],
            'guest.cancel': '#guestPage.cancelling',
          },
        },
        joining: {
          tags: [GUEST_TAGS.lobby, GUEST_TAGS.busy],
          invoke: {
            id: 'fetchToken',
            src: 'fetchToken',
            input: ({ context }) => context.knock as GuestKnock,
            onDone: { target: 'inCall', actions: assign({ media: ({ event }) => event.output, error: null }) },
            onError: [
              {
                guard: 'callOverRefused',
                target: '#guestPage.over',
                actions: assign({ error: GUEST_TEXTS.callOver }),
              },
              {
                guard: 'refused',
                target: '#guestPage.ended',
                actions: assign({ error: ({ event }) => failureMessage(event.error, GUEST_TEXTS.gone) }),
              },
              {
                target: 'failed',
                actions: assign({ error: ({ event }) => failureMessage(event.error, GUEST_TEXTS.joinFailed) }),
              },
            ],
          },
        },
        failed: { tags: [GUEST_TAGS.lobby], on: { 'guest.retry': 'joining' } },
        inCall: {
          tags: [GUEST_TAGS.call],
          on: {
            'guest.left': {
              target: '#guestPage.ended',
              actions: assign({ error: GUEST_TEXTS.left, media: null, callKey: null }),
            },
          },
        },
      },
    },
    cancelling: {
      tags: [GUEST_TAGS.busy],
      invoke: {
        id: 'leave',
        src: 'leave',
        input: ({ context }) => context.knock as GuestKnock,
        onDone: { target: 'ready', actions: assign({ knock: null }) },
        onError: { target: 'ready', actions: assign({ knock: null }) },
      },
    },
    // The call this guest was let into is over; the link may still let them into a later one.
    over: {
      tags: [GUEST_TAGS.ended, GUEST_TAGS.again],
      on: { 'guest.again': { target: 'knocking', actions: assign({ error: null, knock: null }) } },
    },
    ended: { type: 'final', tags: [GUEST_TAGS.ended] },
  },
});
