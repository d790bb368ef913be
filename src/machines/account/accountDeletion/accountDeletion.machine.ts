// «Удалить аккаунт» (docs/accounts.md): the confirmation word is checked here, the password by the server
// (POST /api/auth/account/delete). Once deleted, the session signs out on this device too.
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import { systemActor } from '../../shared/system';
import {
  type AccountDeletionContext,
  type AccountDeletionEffects,
  type AccountDeletionEvent,
  CONFIRMATION_NEEDED,
  DELETE_CONFIRMATION,
  DELETE_FAILED,
} from './accountDeletion.protocol';

export * from './accountDeletion.protocol';

export const accountDeletionMachine = setup({
  types: { context: {} as AccountDeletionContext, events: {} as AccountDeletionEvent },
  actors: {
    deleteAccount: notWired('accountDeletion.deleteAccount') as AccountDeletionEffects['deleteAccount'],
  },
  guards: {
    confirmed: ({ event }) => {
      assertEvent(event, 'account.delete');
      return event.confirmation.trim().toUpperCase() === DELETE_CONFIRMATION && event.password !== '';
    },
  },
  actions: {
    signOut: enqueueActions(({ system, enqueue }) => {
      const session = systemActor(system, 'session');
      if (session) enqueue.sendTo(session, { type: 'session.signOut' });
    }),
  },
}).createMachine({
  id: 'accountDeletion',
  context: { error: null },
  initial: 'editing',
  states: {
    editing: {
      tags: ['editable'],
      on: {
        'account.delete': [
          { guard: 'confirmed', target: 'deleting', actions: assign({ error: null }) },
          { actions: assign({ error: CONFIRMATION_NEEDED }) },
        ],
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        src: 'deleteAccount',
        input: ({ event }) => {
          assertEvent(event, 'account.delete');
          return { password: event.password };
        },
        onDone: { target: 'deleted', actions: 'signOut' },
        onError: {
          target: 'editing',
          actions: assign({ error: ({ event }) => failureMessage(event.error, DELETE_FAILED) }),
        },
      },
    },
    deleted: { type: 'final' },
  },
});
