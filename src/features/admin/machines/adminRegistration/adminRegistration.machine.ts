// «Регистрация» (protocol: adminRegistration.protocol.ts): loads the server's settings and the invite codes, then
// saves one change, creates, revokes or copies one code at a time; after a code changes the list is read again.
// «Сохранено» and «Скопировано» show for TIMINGS.successMessageMs.
import { assign, setup } from 'xstate';
import type { ServerSettings } from '../../../../contract/administration';
import { failureMessage } from '../../../../contract/failure';
import { TIMINGS } from '../../../../contract/limits';
import { notWired } from '../../../../core/machines/not-wired';
import {
  type AdminRegistrationContext,
  type AdminRegistrationEvent,
  INVITE_CODE_FAILED,
  type NewInvite,
  REGISTRATION_FAILED,
  REGISTRATION_TAGS,
  type RegistrationState,
  SETTINGS_SAVE_FAILED,
} from './adminRegistration.protocol';

export * from './adminRegistration.protocol';

export const adminRegistrationMachine = setup({
  types: { context: {} as AdminRegistrationContext, events: {} as AdminRegistrationEvent },
  actors: {
    /** GET /api/admin/settings and GET /api/registration/invites. */
    load: notWired<RegistrationState>('adminRegistration.load'),
    /** PATCH /api/admin/settings: the settings as saved. */
    saveSettings: notWired<ServerSettings, Partial<ServerSettings>>('adminRegistration.saveSettings'),
    /** POST /api/registration/invites. */
    createInvite: notWired<unknown, NewInvite>('adminRegistration.createInvite'),
    /** POST /api/registration/invites/revoke. */
    revokeInvite: notWired<unknown, { code: string }>('adminRegistration.revokeInvite'),
    /** The code to the clipboard. */
    copyCode: notWired<unknown, { code: string }>('adminRegistration.copyCode'),
  },
  actions: {
    takeFailure: assign({
      change: null,
      draft: null,
      code: null,
      error: (_, p: { error: unknown; fallback: string }) => failureMessage(p.error, p.fallback),
    }),
  },
  delays: { notice: TIMINGS.successMessageMs },
}).createMachine({
  id: 'adminRegistration',
  context: { settings: null, invites: [], change: null, draft: null, code: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: [REGISTRATION_TAGS.busy],
      invoke: {
        id: 'load',
        src: 'load',
        onDone: {
          target: 'ready',
          actions: assign({
            settings: ({ event }) => event.output.settings,
            invites: ({ event }) => event.output.invites,
          }),
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'takeFailure',
            params: ({ event }) => ({ error: event.error, fallback: REGISTRATION_FAILED }),
          },
        },
      },
    },
    failed: { on: { 'registration.reload': { target: 'loading', actions: assign({ error: null }) } } },
    ready: {
      on: {
        'registration.reload': 'loading',
        'registration.save': {
          target: 'saving',
          actions: assign({ change: ({ event }) => event.change, error: null }),
        },
        'registration.createInvite': {
          target: 'creating',
          actions: assign({ draft: ({ event }) => event.invite, error: null }),
        },
        'registration.revoke': {
          target: 'revoking',
          actions: assign({ code: ({ event }) => event.code, error: null }),
        },
        'registration.copy': { target: 'copying', actions: assign({ code: ({ event }) => event.code, error: null }) },
      },
    },
    saving: {
      tags: [REGISTRATION_TAGS.busy],
      invoke: {
        id: 'saveSettings',
        src: 'saveSettings',
        input: ({ context }) => context.change ?? {},
        onDone: { target: 'saved', actions: assign({ settings: ({ event }) => event.output, change: null }) },
        onError: {
          target: 'ready',
          actions: {
            type: 'takeFailure',
            params: ({ event }) => ({ error: event.error, fallback: SETTINGS_SAVE_FAILED }),
          },
        },
      },
    },
    saved: {
      tags: [REGISTRATION_TAGS.saved],
      after: { notice: 'ready' },
      // «Сохранено» is only a notice: everything «ready» takes is taken here too.
      on: {
        'registration.save': {
          target: 'saving',
          actions: assign({ change: ({ event }) => event.change, error: null }),
        },
        'registration.createInvite': {
          target: 'creating',
          actions: assign({ draft: ({ event }) => event.invite, error: null }),
        },
        'registration.revoke': {
          target: 'revoking',
          actions: assign({ code: ({ event }) => event.code, error: null }),
        },
        'registration.copy': { target: 'copying', actions: assign({ code: ({ event }) => event.code, error: null }) },
      },
    },
    creating: {
      tags: [REGISTRATION_TAGS.busy],
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
      tags: [REGISTRATION_TAGS.busy],
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
      tags: [REGISTRATION_TAGS.copied],
      after: { notice: { target: 'ready', actions: assign({ code: null }) } },
      on: {
        'registration.revoke': {
          target: 'revoking',
          actions: assign({ code: ({ event }) => event.code, error: null }),
        },
        'registration.createInvite': {
          target: 'creating',
          actions: assign({ code: null, draft: ({ event }) => event.invite, error: null }),
        },
      },
    },
  },
});
