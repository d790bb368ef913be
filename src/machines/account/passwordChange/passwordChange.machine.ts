// «Сменить пароль» (docs/accounts.md): the new password is checked here first (length, typed twice alike), then
// POST /api/auth/password; the server's answer (a wrong current password, the sign-in lock) is shown as it says.
// After a change every other sign-in has ended (the devices list, when shown, loads again); this one goes on.
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import { systemActor } from '../../shared/system';
import {
  newPasswordProblem,
  PASSWORD_FAILED,
  type PasswordChangeEffects,
  type PasswordContext,
  type PasswordEvent,
  type PasswordFields,
} from './passwordChange.protocol';

export * from './passwordChange.protocol';

/** What is wrong with the form before it is sent, or null. */
export function formProblem(f: PasswordFields): string | null {
  return newPasswordProblem(f.newPassword, f.repeat);
}

export const passwordMachine = setup({
  types: { context: {} as PasswordContext, events: {} as PasswordEvent },
  actors: {
    changePassword: notWired('password.changePassword') as PasswordChangeEffects['changePassword'],
  },
  actions: {
    // «Устройства», when shown, lists what is left: every other sign-in has just ended.
    refreshDevices: enqueueActions(({ system, enqueue }) => {
      const devices = systemActor(system, 'devices');
      if (devices) enqueue.sendTo(devices, { type: 'devices.reload' });
    }),
  },
  guards: {
    formOk: ({ event }) => {
      assertEvent(event, 'password.submit');
      return formProblem(event.fields) === null;
    },
  },
}).createMachine({
  id: 'passwordChange',
  context: { error: null },
  initial: 'editing',
  states: {
    editing: {
      tags: ['editable'],
      on: {
        'password.submit': [
          { guard: 'formOk', target: 'saving', actions: assign({ error: null }) },
          {
            actions: assign({
              error: ({ event }) => formProblem(event.fields),
            }),
          },
        ],
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        src: 'changePassword',
        input: ({ event }) => {
          assertEvent(event, 'password.submit');
          return { currentPassword: event.fields.currentPassword, newPassword: event.fields.newPassword };
        },
        onDone: { target: 'changed', actions: 'refreshDevices' },
        onError: {
          target: 'editing',
          actions: assign({ error: ({ event }) => failureMessage(event.error, PASSWORD_FAILED) }),
        },
      },
    },
    changed: {
      tags: ['saved', 'editable'],
      on: {
        'password.edit': 'editing',
        'password.submit': [
          { guard: 'formOk', target: 'saving', actions: assign({ error: null }) },
          { target: 'editing', actions: assign({ error: ({ event }) => formProblem(event.fields) }) },
        ],
      },
    },
  },
});
