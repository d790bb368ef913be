// «Двухэтапная проверка» (docs/behaviour.md §10.7a): loads whether it is on, sets it up (a secret shown as a QR code,
// confirmed by a first code from the app; then the ten recovery codes, shown once), makes new recovery codes, turns
// it off. Resetting, new codes and turning off carry the password; the server's refusal is shown as it says. Once
// it is turned on the session hears of it (a set-up the server required is done).
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import { systemActor } from '../../shared/system';
import {
  TWO_FACTOR_FAILED,
  TWO_FACTOR_LOAD_FAILED,
  type TwoFactorContext,
  type TwoFactorEffects,
  type TwoFactorEvent,
} from './twoFactor.protocol';

export * from './twoFactor.protocol';

export const twoFactorMachine = setup({
  types: { context: {} as TwoFactorContext, events: {} as TwoFactorEvent },
  actors: {
    loadStatus: notWired('twoFactor.loadStatus') as TwoFactorEffects['loadStatus'],
    begin: notWired('twoFactor.begin') as TwoFactorEffects['begin'],
    confirm: notWired('twoFactor.confirm') as TwoFactorEffects['confirm'],
    disable: notWired('twoFactor.disable') as TwoFactorEffects['disable'],
    regenerate: notWired('twoFactor.regenerate') as TwoFactorEffects['regenerate'],
  },
  actions: {
    tellSession: enqueueActions(({ system, enqueue }) => {
      const session = systemActor(system, 'session');
      if (session) enqueue.sendTo(session, { type: 'session.twoFactorEnabled' });
    }),
  },
}).createMachine({
  id: 'twoFactor',
  context: { status: null, secret: null, uri: null, recoveryCodes: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadStatus',
        onDone: { target: 'ready', actions: assign({ status: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => failureMessage(event.error, TWO_FACTOR_LOAD_FAILED) }),
        },
      },
    },
    failed: {
      tags: ['failed'],
      on: { 'twoFactor.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    ready: {
      on: {
        'twoFactor.begin': { target: 'beginning', actions: assign({ error: null }) },
        'twoFactor.disable': { target: 'disabling', actions: assign({ error: null }) },
        'twoFactor.regenerate': { target: 'regenerating', actions: assign({ error: null }) },
      },
    },
    beginning: {
      tags: ['busy'],
      invoke: {
        src: 'begin',
        input: ({ event }) => {
          assertEvent(event, 'twoFactor.begin');
          return event.password ? { password: event.password } : {};
        },
        onDone: {
          target: 'settingUp',
          actions: assign({ secret: ({ event }) => event.output.secret, uri: ({ event }) => event.output.uri }),
        },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, TWO_FACTOR_FAILED) }),
        },
      },
    },
    settingUp: {
      tags: ['settingUp'],
      on: {
        'twoFactor.confirm': { target: 'confirming', actions: assign({ error: null }) },
        'twoFactor.cancel': { target: 'ready', actions: assign({ secret: null, uri: null, error: null }) },
      },
    },
    confirming: {
      tags: ['busy', 'settingUp'],
      invoke: {
        src: 'confirm',
        input: ({ event }) => {
          assertEvent(event, 'twoFactor.confirm');
          return { code: event.code };
        },
        onDone: {
          target: 'showingCodes',
          actions: [
            assign({ recoveryCodes: ({ event }) => event.output.recoveryCodes, secret: null, uri: null }),
            'tellSession',
          ],
        },
        onError: {
          target: 'settingUp',
          actions: assign({ error: ({ event }) => failureMessage(event.error, TWO_FACTOR_FAILED) }),
        },
      },
    },
    showingCodes: {
      tags: ['showingCodes'],
      on: { 'twoFactor.done': { target: 'loading', actions: assign({ recoveryCodes: null }) } },
    },
    disabling: {
      tags: ['busy'],
      invoke: {
        src: 'disable',
        input: ({ event }) => {
          assertEvent(event, 'twoFactor.disable');
          return { password: event.password };
        },
        onDone: 'loading',
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, TWO_FACTOR_FAILED) }),
        },
      },
    },
    regenerating: {
      tags: ['busy'],
      invoke: {
        src: 'regenerate',
        input: ({ event }) => {
          assertEvent(event, 'twoFactor.regenerate');
          return { password: event.password };
        },
        onDone: {
          target: 'showingCodes',
          actions: assign({ recoveryCodes: ({ event }) => event.output.recoveryCodes }),
        },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, TWO_FACTOR_FAILED) }),
        },
      },
    },
  },
});
