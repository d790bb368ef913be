// «Регистрация» (protocol: adminRegistration.protocol.ts): loads the server's settings, then saves one change at a
// time. «Сохранено» shows for TIMINGS.successMessageMs. The invite codes below it are the inviteCodes actor's.
import { assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { notWired } from '../../shared/not-wired';
import {
  type AdminRegistrationContext,
  type AdminRegistrationEffects,
  type AdminRegistrationEvent,
  REGISTRATION_FAILED,
  REGISTRATION_TAGS,
  SETTINGS_SAVE_FAILED,
} from './adminRegistration.protocol';

export * from './adminRegistration.protocol';

export const adminRegistrationMachine = setup({
  types: { context: {} as AdminRegistrationContext, events: {} as AdminRegistrationEvent },
  actors: {
    load: notWired('adminRegistration.load') as AdminRegistrationEffects['load'],
    saveSettings: notWired('adminRegistration.saveSettings') as AdminRegistrationEffects['saveSettings'],
  },
  actions: {
    takeFailure: assign({
      change: null,
      error: (_, p: { error: unknown; fallback: string }) => failureMessage(p.error, p.fallback),
    }),
  },
  delays: { notice: TIMINGS.successMessageMs },
}).createMachine({
  id: 'adminRegistration',
  context: { settings: null, change: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: [REGISTRATION_TAGS.busy],
      invoke: {
        id: 'load',
        src: 'load',
        onDone: { target: 'ready', actions: assign({ settings: ({ event }) => event.output }) },
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
      // «Сохранено» is only a notice: a new change is taken here too.
      on: {
        'registration.save': {
          target: 'saving',
          actions: assign({ change: ({ event }) => event.change, error: null }),
        },
      },
    },
  },
});
