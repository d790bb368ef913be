// «Ключ восстановления» (docs/secret-chats.md "The recovery key"): the dialog's actor, alive while it is open. It
// reads whether the person has a key; «Создать ключ» makes a phrase in the crypto worker and shows it once;
// «Я сохранил ключ» hands the key's check value to the server and uploads this device's history; «Ввести ключ
// восстановления» takes a phrase, refuses a wrong one («Неверный ключ восстановления», nothing changed) and otherwise
// fills this device's store from the backup and tells the device actor to read again what it could not;
// «Удалить ключ восстановления» deletes the key and the backup.
import { assign, enqueueActions, setup } from 'xstate';
import { failureOf } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import { systemActor } from '../../shared/system';
import {
  EMPTY_PHRASE,
  RECOVERY_FAILED,
  type RecoveryMade,
  type SecretRecoveryContext,
  type SecretRecoveryEffects,
  type SecretRecoveryEvent,
  type SecretRecoveryInput,
} from './secretRecovery.protocol';

export * from './secretRecovery.protocol';

/** The worker's Russian message (a wrong phrase, a damaged backup), the server's, or a general one. */
const errorText = (e: unknown) =>
  e instanceof Error && e.name === 'SecretCryptoError' ? e.message : (failureOf(e).serverMessage ?? RECOVERY_FAILED);
const wrongKey = (e: unknown) =>
  e instanceof Error && e.name === 'SecretCryptoError' && (e as Error & { code?: string }).code === 'badKey';

export const secretRecoveryMachine = setup({
  types: {
    context: {} as SecretRecoveryContext,
    events: {} as SecretRecoveryEvent,
    input: {} as SecretRecoveryInput,
  },
  actors: {
    status: notWired('secretRecovery.status') as SecretRecoveryEffects['status'],
    generate: notWired('secretRecovery.generate') as SecretRecoveryEffects['generate'],
    confirm: notWired('secretRecovery.confirm') as SecretRecoveryEffects['confirm'],
    restore: notWired('secretRecovery.restore') as SecretRecoveryEffects['restore'],
    remove: notWired('secretRecovery.remove') as SecretRecoveryEffects['remove'],
  },
  guards: {
    hasKey: ({ context }) => context.status?.hasKey === true,
  },
}).createMachine({
  id: 'secretRecovery',
  context: ({ input }) => ({ ...input, status: null, made: null, error: null, restored: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'status',
        src: 'status',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: [
          {
            guard: ({ context, event }) => context.mode === 'restore' && event.output.hasKey,
            target: 'entering',
            actions: assign({ status: ({ event }) => event.output }),
          },
          { target: 'idle', actions: assign({ status: ({ event }) => event.output }) },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    idle: {
      tags: ['idle'],
      on: {
        'secretRecovery.create': 'generating',
        'secretRecovery.enter': { guard: 'hasKey', target: 'entering' },
        'secretRecovery.remove': { guard: 'hasKey', target: 'removing' },
      },
    },
    generating: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        id: 'generate',
        src: 'generate',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: 'showingPhrase', actions: assign({ made: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    showingPhrase: {
      tags: ['phrase'],
      on: {
        'secretRecovery.saved': 'confirming',
        // Not saved: the phrase is forgotten and the server never hears of it.
        'secretRecovery.back': { target: 'idle', actions: assign({ made: null }) },
      },
    },
    confirming: {
      tags: ['busy', 'phrase'],
      invoke: {
        id: 'confirm',
        src: 'confirm',
        input: ({ context }) => ({ userId: context.userId, made: context.made as RecoveryMade }),
        onDone: {
          target: 'done',
          actions: assign({
            made: null,
            status: ({ context }) => ({ hasKey: true, createdAt: context.status?.createdAt ?? null, here: true }),
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ made: null, error: ({ event }) => errorText(event.error) }),
        },
      },
    },
    entering: {
      tags: ['entering'],
      on: {
        'secretRecovery.submit': [
          { guard: ({ event }) => event.phrase.trim() === '', actions: assign({ error: EMPTY_PHRASE }) },
          { target: 'restoring', actions: assign({ error: null }) },
        ],
        'secretRecovery.back': { target: 'idle', actions: assign({ error: null }) },
      },
    },
    restoring: {
      tags: ['busy', 'entering'],
      invoke: {
        id: 'restore',
        src: 'restore',
        input: ({ context, event }) => ({
          userId: context.userId,
          phrase: event.type === 'secretRecovery.submit' ? event.phrase : '',
        }),
        onDone: {
          target: 'done',
          actions: [
            assign({
              restored: ({ event }) => event.output.restored,
              status: ({ context }) => ({ hasKey: true, createdAt: context.status?.createdAt ?? null, here: true }),
            }),
            // The messages this device could not read are asked for again: the store has them now.
            enqueueActions(({ enqueue, system }) => {
              const device = systemActor(system, 'secretDevice');
              if (device) enqueue.sendTo(device, { type: 'secretDevice.restored' });
            }),
          ],
        },
        onError: [
          // A wrong phrase changed nothing: it may be typed again.
          {
            guard: ({ event }) => wrongKey(event.error),
            target: 'entering',
            actions: assign({ error: ({ event }) => errorText(event.error) }),
          },
          { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
        ],
      },
    },
    removing: {
      tags: ['busy'],
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: 'idle', actions: assign({ status: { hasKey: false, createdAt: null, here: false } }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    failed: {
      tags: ['failed'],
      on: { 'secretRecovery.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    done: {
      tags: ['done'],
      on: { 'secretRecovery.back': { target: 'loading', actions: assign({ restored: null }) } },
    },
  },
});
