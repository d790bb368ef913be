// The password-reset page's actor (protocol: passwordReset.protocol.ts; docs/administration.md «Accounts»).
// GET /api/auth/reset/:token names the account; an unknown, used or expired link (404, 410, or a malformed token:
// 400) shows the server's message for good, any other failure offers «Повторить». The new password is checked as
// the server checks it (the contract's Password, typed twice alike) before POST /api/auth/reset; a failure keeps
// the form for another try, a link used up meanwhile turns invalid. Saving ends every sign-in of the account on the
// server; this page does not need one.
import { assertEvent, assign, setup } from 'xstate';
import { failureMessage, RequestFailure } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import { newPasswordProblem } from '../../account/passwordChange/passwordChange.protocol';
import {
  type PasswordResetContext,
  type PasswordResetEffects,
  type PasswordResetEvent,
  type PasswordResetInput,
  RESET_FAILED,
  RESET_LOAD_FAILED,
  RESET_TAGS,
  type ResetFields,
} from './passwordReset.protocol';

export * from './passwordReset.protocol';

/** What is wrong with the form before it is sent (the rules of «Сменить пароль» and registration), or null. */
export function resetFormProblem(f: ResetFields): string | null {
  return newPasswordProblem(f.password, f.repeat);
}

const statusOf = (event: unknown) => {
  const error = (event as { error?: unknown }).error;
  return error instanceof RequestFailure ? error.status : null;
};

export const passwordResetMachine = setup({
  types: { context: {} as PasswordResetContext, events: {} as PasswordResetEvent, input: {} as PasswordResetInput },
  actors: {
    loadAccount: notWired('passwordReset.loadAccount') as PasswordResetEffects['loadAccount'],
    resetPassword: notWired('passwordReset.resetPassword') as PasswordResetEffects['resetPassword'],
  },
  guards: {
    /** The link is unknown, used, expired or malformed. */
    deadLink: ({ event }) => [400, 404, 410].includes(statusOf(event) ?? 0),
    /** Used up (or expired) between opening the page and saving; a 400 there is about the password. */
    usedUp: ({ event }) => [404, 410].includes(statusOf(event) ?? 0),
    formOk: ({ event }) => {
      assertEvent(event, 'reset.submit');
      return resetFormProblem(event.fields) === null;
    },
  },
}).createMachine({
  id: 'passwordReset',
  context: ({ input }) => ({ token: input.token, account: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: [RESET_TAGS.busy],
      invoke: {
        id: 'loadAccount',
        src: 'loadAccount',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'ready', actions: assign({ account: ({ event }) => event.output, error: null }) },
        onError: [
          {
            guard: 'deadLink',
            target: 'invalid',
            actions: assign({ error: ({ event }) => failureMessage(event.error, RESET_LOAD_FAILED) }),
          },
          {
            target: 'unreachable',
            actions: assign({ error: ({ event }) => failureMessage(event.error, RESET_LOAD_FAILED) }),
          },
        ],
      },
    },
    unreachable: { on: { 'reset.retry': 'loading' } },
    invalid: { tags: [RESET_TAGS.invalid] },
    ready: {
      tags: [RESET_TAGS.form],
      on: {
        'reset.submit': [
          { guard: 'formOk', target: 'saving', actions: assign({ error: null }) },
          { actions: assign({ error: ({ event }) => resetFormProblem(event.fields) }) },
        ],
      },
    },
    saving: {
      tags: [RESET_TAGS.form, RESET_TAGS.busy],
      invoke: {
        id: 'resetPassword',
        src: 'resetPassword',
        input: ({ context, event }) => {
          assertEvent(event, 'reset.submit');
          return { token: context.token, password: event.fields.password };
        },
        onDone: 'done',
        onError: [
          {
            guard: 'usedUp',
            target: 'invalid',
            actions: assign({ error: ({ event }) => failureMessage(event.error, RESET_FAILED) }),
          },
          { target: 'ready', actions: assign({ error: ({ event }) => failureMessage(event.error, RESET_FAILED) }) },
        ],
      },
    },
    done: { type: 'final', tags: [RESET_TAGS.done] },
  },
});
