// Invite codes (protocol: inviteCodes.protocol.ts): loads the mode, the codes and whether the caller may make one,
// then creates, revokes or copies one code at a time; after a code changes the list is read again. «Скопировано»
// shows for TIMINGS.successMessageMs.
import { assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { notWired } from '../../shared/not-wired';
import {
  INVITE_CODE_FAILED,
  INVITE_TAGS,
  type InviteCodesContext,
  type InviteCodesEffects,
  type InviteCodesEvent,
  INVITES_FAILED,
} from './inviteCodes.protocol';

export * from './inviteCodes.protocol';

export const inviteCodesMachine = setup({
  types: { context: {} as InviteCodesContext, events: {} as InviteCodesEvent },
  actors: {
    load: notWired('inviteCodes.load') as InviteCodesEffects['load'],
    createInvite: notWired('inviteCodes.createInvite') as InviteCodesEffects['createInvite'],
    revokeInvite: notWired('inviteCodes.revokeInvite') as InviteCodesEffects['revokeInvite'],
    copyCode: notWired('inviteCodes.copyCode') as InviteCodesEffects['copyCode'],
  },
  actions: {
    takeFailure: assign({
      draft: null,
      code: null,
      error: (_, p: { error: unknown; fallback: string }) => failureMessage(p.error, p.fallback),
    }),
  },
  delays: { notice: TIMINGS.successMessageMs },
}).createMachine({
  id: 'inviteCodes',
  context: { mode: null, invites: [], canCreate: false, draft: null, code: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: [INVITE_TAGS.busy],
      invoke: {
        id: 'load',
        src: 'load',
        onDone: {
          target: 'ready',
          actions: assign({
            mode: ({ event }) => event.output.mode,
            invites: ({ event }) => event.output.invites,
            canCreate: ({ event }) => event.output.canCreate,
          }),
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'takeFailure',
            params: ({ event }) => ({ error: event.error, fallback: INVITES_FAILED }),
          },
        },
      },
    },
    failed: { on: { 'invites.reload': { target: 'loading', actions: assign({ error: null }) } } },
    ready: {
      on: {
        'invites.reload': 'loading',
        'invites.create': {
          target: 'creating',
          actions: assign({ draft: ({ event }) => event.invite, error: null }),
        },
        'invites.revoke': { target: 'revoking', actions: assign({ code: ({ event }) => event.code, error: null }) },
        'invites.copy': { target: 'copying', actions: assign({ code: ({ event }) => event.code, error: null }) },
      },
    },
    creating: {
      tags: [INVITE_TAGS.busy],
      invoke: {
        id: 'createInvite',
        src: 'createInvite',
        input: ({ context }) => context.draft ?? { expiresInHours: null, maxUses: null, note: '' },
        onDone: { target: 'loading', actions: assign({ draft: null }) },
        onError: {
          target: 'ready',
          actions: {
            type: 'takeFailure',
            params: ({ event }) => ({ error: event.error, fallback: INVITE_CODE_FAILED }),
          },
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
          actions: {
            type: 'takeFailure',
            params: ({ event }) => ({ error: event.error, fallback: INVITE_CODE_FAILED }),
          },
        },
      },
    },
    copying: {
      invoke: {
        id: 'copyCode',
        src: 'copyCode',
        input: ({ context }) => ({ code: context.code ?? '' }),
        onDone: 'copied',
        onError: { target: 'ready', actions: assign({ code: null }) },
      },
    },
    copied: {
      tags: [INVITE_TAGS.copied],
      after: { notice: { target: 'ready', actions: assign({ code: null }) } },
      on: {
        'invites.revoke': { target: 'revoking', actions: assign({ code: ({ event }) => event.code, error: null }) },
        'invites.create': {
          target: 'creating',
          actions: assign({ code: null, draft: ({ event }) => event.invite, error: null }),
        },
      },
    },
  },
});
