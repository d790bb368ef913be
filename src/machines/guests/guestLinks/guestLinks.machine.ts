// «Ссылки на звонки» (protocol: guestLinks.protocol.ts; docs/behaviour.md §10.40). Loads the room's live links, then
// makes, revokes or copies one, or saves the group's «Кто впускает гостей», one at a time; after a link changes the
// list is read again, also when someone else made or revoked one (`guest:links`: at once when idle, after the request
// that runs otherwise). «Скопировано» shows for TIMINGS.successMessageMs.
import { assertEvent, assign, setup } from 'xstate';
import type { z } from 'zod';
import type { GuestLinksResponse } from '../../../contract/guests';
import { failureMessage } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { notWired, notWiredCallback } from '../../shared/not-wired';
import {
  type GuestLinksContext,
  type GuestLinksEffects,
  type GuestLinksEvent,
  type GuestLinksInput,
  LINKS_TAGS,
  LINKS_TEXTS,
} from './guestLinks.protocol';

export * from './guestLinks.protocol';

type Listed = z.output<typeof GuestLinksResponse>;

const CONVERSATION_ROOM = /^conv-(.+)$/;

/** What «Ссылки на звонки» accepts wherever the list is shown (ready, or while «Скопировано» shows). */
const choices = {
  'links.reload': { target: 'loading' },
  'links.changed': { target: 'loading' },
  'links.create': { target: 'creating', actions: 'takeHours' },
  'links.revoke': { target: 'revoking', actions: 'takeCode' },
  'links.admission': { target: 'admitting', actions: 'takeAdmission' },
  'links.copy': { target: 'copying', actions: 'takeCode' },
} as const;

export const guestLinksMachine = setup({
  types: {
    context: {} as GuestLinksContext,
    events: {} as GuestLinksEvent,
    input: {} as GuestLinksInput,
  },
  actors: {
    linkChanges: notWiredCallback('guestLinks.linkChanges') as GuestLinksEffects['linkChanges'],
    loadLinks: notWired('guestLinks.loadLinks') as GuestLinksEffects['loadLinks'],
    createLink: notWired('guestLinks.createLink') as GuestLinksEffects['createLink'],
    revokeLink: notWired('guestLinks.revokeLink') as GuestLinksEffects['revokeLink'],
    copyLink: notWired('guestLinks.copyLink') as GuestLinksEffects['copyLink'],
    saveAdmission: notWired('guestLinks.saveAdmission') as GuestLinksEffects['saveAdmission'],
  },
  actions: {
    takeHours: assign({
      hours: ({ event }) => {
        assertEvent(event, 'links.create');
        return event.hours;
      },
      code: null,
      error: null,
    }),
    takeCode: assign({
      code: ({ event }) => {
        assertEvent(event, ['links.revoke', 'links.copy']);
        return event.code;
      },
      error: null,
    }),
    takeAdmission: assign({
      admission: ({ event }) => {
        assertEvent(event, 'links.admission');
        return event.adminsOnly;
      },
      code: null,
      error: null,
    }),
    markStale: assign({ stale: true }),
    takeList: assign((_, listed: Listed) => ({
      links: listed.links,
      adminsOnly: listed.adminsOnly,
      enabled: listed.enabled,
    })),
  },
  guards: { stale: ({ context }) => context.stale },
  delays: { copiedNotice: TIMINGS.successMessageMs },
}).createMachine({
  id: 'guestLinks',
  context: ({ input }) => ({
    room: input.room,
    conversationId: CONVERSATION_ROOM.exec(input.room)?.[1] ?? null,
    links: [],
    adminsOnly: false,
    enabled: true,
    hours: 24,
    code: null,
    admission: false,
    stale: false,
    error: null,
  }),
  invoke: { id: 'linkChanges', src: 'linkChanges', input: ({ context }) => ({ room: context.room }) },
  // Whatever runs now, the list is read again after it (ready reloads a stale list).
  on: { 'links.changed': { actions: 'markStale' } },
  initial: 'loading',
  states: {
    loading: {
      tags: [LINKS_TAGS.busy],
      entry: assign({ stale: false }),
      // The list being read may be older than the change: read it again.
      on: { 'links.changed': { target: 'loading', reenter: true } },
      invoke: {
        id: 'loadLinks',
        src: 'loadLinks',
        input: ({ context }) => ({ room: context.room }),
        onDone: { target: 'ready', actions: { type: 'takeList', params: ({ event }) => event.output } },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, LINKS_TEXTS.loadFailed) }),
        },
      },
    },
    ready: {
      always: { guard: 'stale', target: 'loading' },
      on: choices,
    },
    creating: {
      tags: [LINKS_TAGS.busy],
      invoke: {
        id: 'createLink',
        src: 'createLink',
        input: ({ context }) => ({ room: context.room, hours: context.hours }),
        onDone: 'loading',
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, LINKS_TEXTS.actionFailed) }),
        },
      },
    },
    revoking: {
      tags: [LINKS_TAGS.busy],
      invoke: {
        id: 'revokeLink',
        src: 'revokeLink',
        input: ({ context }) => ({ code: context.code ?? '' }),
        onDone: { target: 'loading', actions: assign({ code: null }) },
        onError: {
          target: 'ready',
          actions: assign({
            code: null,
            error: ({ event }) => failureMessage(event.error, LINKS_TEXTS.actionFailed),
          }),
        },
      },
    },
    admitting: {
      tags: [LINKS_TAGS.busy],
      invoke: {
        id: 'saveAdmission',
        src: 'saveAdmission',
        input: ({ context }) => ({ conversationId: context.conversationId ?? '', adminsOnly: context.admission }),
        onDone: { target: 'ready', actions: assign({ adminsOnly: ({ event }) => event.output.adminsOnly }) },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, LINKS_TEXTS.admissionFailed) }),
        },
      },
    },
    copying: {
      invoke: {
        id: 'copyLink',
        src: 'copyLink',
        input: ({ context }) => ({ code: context.code ?? '' }),
        onDone: 'copied',
        onError: { target: 'ready', actions: assign({ code: null }) },
      },
    },
    copied: {
      tags: [LINKS_TAGS.copied],
      after: { copiedNotice: { target: 'ready', actions: assign({ code: null }) } },
      on: choices,
    },
  },
});
