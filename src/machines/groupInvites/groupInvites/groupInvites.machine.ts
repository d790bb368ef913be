// The invite links actor (protocol: groupInvites.protocol.ts). Loads the group's links, then creates, revokes or copies
// one at a time; after a change the list is read again. «Скопировано» shows for TIMINGS.successMessageMs.
import { assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { notWired } from '../../shared/not-wired';
import {
  type GroupInvitesContext,
  type GroupInvitesEffects,
  type GroupInvitesEvent,
  type GroupInvitesInput,
  INVITE_ACTION_FAILED,
  INVITE_TAGS,
  INVITES_FAILED,
} from './groupInvites.protocol';

export * from './groupInvites.protocol';

export const groupInvitesMachine = setup({
  types: {
    context: {} as GroupInvitesContext,
    events: {} as GroupInvitesEvent,
    input: {} as GroupInvitesInput,
  },
  actors: {
    loadInvites: notWired('groupInvites.loadInvites') as GroupInvitesEffects['loadInvites'],
    createInvite: notWired('groupInvites.createInvite') as GroupInvitesEffects['createInvite'],
    revokeInvite: notWired('groupInvites.revokeInvite') as GroupInvitesEffects['revokeInvite'],
    copyInvite: notWired('groupInvites.copyInvite') as GroupInvitesEffects['copyInvite'],
  },
  actions: {
    takeLimits: assign({
      limits: ({ event }) =>
        event.type === 'invites.create'
          ? { expiresAt: event.expiresAt ?? null, maxUses: event.maxUses ?? null }
          : { expiresAt: null, maxUses: null },
    }),
  },
  delays: { copiedNotice: TIMINGS.successMessageMs },
}).createMachine({
  id: 'groupInvites',
  context: ({ input }) => ({
    conversationId: input.conversationId,
    invites: [],
    code: null,
    limits: { expiresAt: null, maxUses: null },
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: [INVITE_TAGS.busy],
      invoke: {
        id: 'loadInvites',
        src: 'loadInvites',
        input: ({ context }) => ({ conversationId: context.conversationId }),
        onDone: { target: 'ready', actions: assign({ invites: ({ event }) => event.output }) },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, INVITES_FAILED) }),
        },
      },
    },
    ready: {
      on: {
        'invites.reload': 'loading',
        'invites.create': { target: 'creating', actions: ['takeLimits', assign({ error: null })] },
        'invites.revoke': { target: 'revoking', actions: assign({ code: ({ event }) => event.code, error: null }) },
        'invites.copy': { target: 'copying', actions: assign({ code: ({ event }) => event.code, error: null }) },
      },
    },
    creating: {
      tags: [INVITE_TAGS.busy],
      invoke: {
        id: 'createInvite',
        src: 'createInvite',
        input: ({ context }) => ({ conversationId: context.conversationId, ...context.limits }),
        onDone: 'loading',
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, INVITE_ACTION_FAILED) }),
        },
      },
    },
    revoking: {
      tags: [INVITE_TAGS.busy],
      invoke: {
        id: 'revokeInvite',
        src: 'revokeInvite',
        input: ({ context }) => ({ code: context.code ?? '' }),
        onDone: { target: 'loading', actions: assign({ code: null }) },
        onError: {
          target: 'ready',
          actions: assign({ code: null, error: ({ event }) => failureMessage(event.error, INVITE_ACTION_FAILED) }),
        },
      },
    },
    copying: {
      invoke: {
        id: 'copyInvite',
        src: 'copyInvite',
        input: ({ context }) => ({ code: context.code ?? '' }),
        onDone: 'copied',
        onError: { target: 'ready', actions: assign({ code: null }) },
      },
    },
    copied: {
      tags: [INVITE_TAGS.copied],
      after: { copiedNotice: { target: 'ready', actions: assign({ code: null }) } },
      on: {
        'invites.create': { target: 'creating', actions: ['takeLimits', assign({ code: null, error: null })] },
        'invites.revoke': { target: 'revoking', actions: assign({ code: ({ event }) => event.code, error: null }) },
      },
    },
  },
});
