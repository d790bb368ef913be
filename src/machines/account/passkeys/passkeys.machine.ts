// «Ключи доступа» (docs/behaviour.md §10.7b): lists the account's passkeys, adds one (the password first, then the
// browser's prompt makes the key), renames and removes one (with the password). Whatever the server or the browser
// refused is said as it says, and the list is loaded again after every change. A passkey added counts as a second
// factor: the session hears of it (a set-up the server required is done). Which rows have their rename or remove form
// open is kept here too (`rowModes`): opened from the list, closed by «Отмена» or by sending the form, and dropped for
// a passkey that is gone from the list.
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import { systemActor } from '../../shared/system';
import {
  type Passkey,
  PASSKEY_ADD_FAILED,
  PASSKEY_CHANGE_FAILED,
  PASSKEYS_LOAD_FAILED,
  type PasskeysContext,
  type PasskeysEffects,
  type PasskeysEvent,
} from './passkeys.protocol';

export * from './passkeys.protocol';

export const PASSKEY_ADDED = 'Ключ доступа добавлен';
export const PASSKEY_REMOVED = 'Ключ доступа удалён';

export const passkeysMachine = setup({
  types: { context: {} as PasskeysContext, events: {} as PasskeysEvent },
  actors: {
    loadPasskeys: notWired('passkeys.loadPasskeys') as PasskeysEffects['loadPasskeys'],
    addPasskey: notWired('passkeys.addPasskey') as PasskeysEffects['addPasskey'],
    renamePasskey: notWired('passkeys.renamePasskey') as PasskeysEffects['renamePasskey'],
    removePasskey: notWired('passkeys.removePasskey') as PasskeysEffects['removePasskey'],
  },
  actions: {
    tellSession: enqueueActions(({ system, enqueue }) => {
      const session = systemActor(system, 'session');
      if (session) enqueue.sendTo(session, { type: 'session.twoFactorEnabled' });
    }),
    failWith: assign((_, params: { error: unknown; fallback: string }) => ({
      error: failureMessage(params.error, params.fallback),
    })),
    /** The list as loaded; the open forms of passkeys no longer in it go with them. */
    takeList: assign(({ context }, passkeys: Passkey[]) => ({
      passkeys,
      rowModes: Object.fromEntries(
        Object.entries(context.rowModes).filter(([id]) => passkeys.some((p) => p.id === id)),
      ) as PasskeysContext['rowModes'],
    })),
    openForm: assign(({ context }, { id, mode }: { id: string; mode: 'rename' | 'remove' }) => ({
      rowModes: { ...context.rowModes, [id]: mode },
    })),
    closeForm: assign(({ context }, { id }: { id: string }) => {
      const { [id]: _, ...rest } = context.rowModes;
      return { rowModes: rest };
    }),
  },
}).createMachine({
  id: 'passkeys',
  context: { passkeys: [], error: null, notice: null, rowModes: {} },
  initial: 'loading',
  // «Отмена» stays at hand while a change is under way (only the forms' own buttons wait for it).
  on: { 'passkeys.closeForm': { actions: { type: 'closeForm', params: ({ event }) => ({ id: event.id }) } } },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadPasskeys',
        onDone: { target: 'ready', actions: { type: 'takeList', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: {
            type: 'failWith',
            params: ({ event }) => ({ error: event.error, fallback: PASSKEYS_LOAD_FAILED }),
          },
        },
      },
    },
    failed: {
      tags: ['failed'],
      on: { 'passkeys.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    ready: {
      on: {
        'passkeys.add': { target: 'adding', actions: assign({ error: null, notice: null }) },
        'passkeys.rename': {
          target: 'renaming',
          actions: [assign({ error: null, notice: null }), { type: 'closeForm', params: ({ event }) => event }],
        },
        'passkeys.remove': {
          target: 'removing',
          actions: [assign({ error: null, notice: null }), { type: 'closeForm', params: ({ event }) => event }],
        },
        'passkeys.openRename': {
          actions: { type: 'openForm', params: ({ event }) => ({ id: event.id, mode: 'rename' }) },
        },
        'passkeys.openRemove': {
          actions: { type: 'openForm', params: ({ event }) => ({ id: event.id, mode: 'remove' }) },
        },
      },
    },
    adding: {
      tags: ['busy', 'adding'],
      invoke: {
        src: 'addPasskey',
        input: ({ event }) => {
          assertEvent(event, 'passkeys.add');
          return { name: event.name, password: event.password };
        },
        onDone: { target: 'loading', actions: [assign({ notice: PASSKEY_ADDED }), 'tellSession'] },
        onError: {
          target: 'ready',
          actions: { type: 'failWith', params: ({ event }) => ({ error: event.error, fallback: PASSKEY_ADD_FAILED }) },
        },
      },
    },
    renaming: {
      tags: ['busy'],
      invoke: {
        src: 'renamePasskey',
        input: ({ event }) => {
          assertEvent(event, 'passkeys.rename');
          return { id: event.id, name: event.name };
        },
        onDone: 'loading',
        onError: {
          target: 'ready',
          actions: {
            type: 'failWith',
            params: ({ event }) => ({ error: event.error, fallback: PASSKEY_CHANGE_FAILED }),
          },
        },
      },
    },
    removing: {
      tags: ['busy'],
      invoke: {
        src: 'removePasskey',
        input: ({ event }) => {
          assertEvent(event, 'passkeys.remove');
          return { id: event.id, password: event.password };
        },
        onDone: { target: 'loading', actions: assign({ notice: PASSKEY_REMOVED }) },
        onError: {
          target: 'ready',
          actions: {
            type: 'failWith',
            params: ({ event }) => ({ error: event.error, fallback: PASSKEY_CHANGE_FAILED }),
          },
        },
      },
    },
  },
});
