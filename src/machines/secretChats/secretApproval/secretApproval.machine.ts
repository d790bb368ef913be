// Approving a new device of this person (secretApproval.protocol.ts): looks for open requests at start and on each
// `secretApproval.check`, asks about the first one not declined here, and answers it through the `approve` actor
// (the identity key sealed to the new device, its key signed). `listen` (the wiring's) hears the server and this
// device's own waiting request.
import { assign, setup } from 'xstate';
import { listenToServer } from '../../realtime/index';
import { notWired, notWiredCallback } from '../../shared/not-wired';
import {
  APPROVAL_FAILED,
  type ApprovalAsked,
  RESET_FAILED,
  type SecretApprovalContext,
  type SecretApprovalEffects,
  type SecretApprovalEvent,
  type SecretApprovalInput,
} from './secretApproval.protocol';

export * from './secretApproval.protocol';

const errorText = (e: unknown) =>
  e instanceof Error && (e.name === 'SecretCryptoError' || e.name === 'RequestFailure') && e.message
    ? e.message
    : APPROVAL_FAILED;

/** `secret:approval`: a request came or was answered (on this device or another): look again. */
export const secretApprovalServerEvents = listenToServer<SecretApprovalEvent>(
  { 'secret:approval': () => ({ type: 'secretApproval.check' }) },
  { onConnected: () => ({ type: 'secretApproval.check' }) },
);

export const secretApprovalMachine = setup({
  types: {
    context: {} as SecretApprovalContext,
    events: {} as SecretApprovalEvent,
    input: {} as SecretApprovalInput,
  },
  actors: {
    serverEvents: secretApprovalServerEvents,
    listen: notWiredCallback('secretApproval.listen') as SecretApprovalEffects['listen'],
    pending: notWired('secretApproval.pending') as SecretApprovalEffects['pending'],
    approve: notWired('secretApproval.approve') as SecretApprovalEffects['approve'],
    decline: notWired('secretApproval.decline') as SecretApprovalEffects['decline'],
    askAgain: notWired('secretApproval.askAgain') as SecretApprovalEffects['askAgain'],
    reset: notWired('secretApproval.reset') as SecretApprovalEffects['reset'],
  },
  actions: {
    ownCode: assign({ ownCode: ({ event }) => (event.type === 'secretApproval.waiting' ? event.code : null) }),
    decline: assign({
      declined: ({ context }) => (context.request ? [...context.declined, context.request.id] : context.declined),
      request: null,
      error: null,
    }),
  },
}).createMachine({
  id: 'secretApproval',
  context: ({ input }) => ({ ...input, request: null, declined: [], ownCode: null, error: null }),
  invoke: [{ src: 'serverEvents' }, { src: 'listen', input: ({ context }) => ({ userId: context.userId }) }],
  on: {
    // This device's own request was declined: it stops waiting and offers the recovery key or a reset.
    'secretApproval.waiting': [
      { guard: ({ event }) => event.declined === true, target: '.declined', actions: 'ownCode' },
      { actions: 'ownCode' },
    ],
  },
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        src: 'pending',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: {
          target: 'shown',
          actions: assign({
            request: ({ context, event }) => event.output.find((r) => !context.declined.includes(r.id)) ?? null,
          }),
        },
        onError: 'shown',
      },
      on: { 'secretApproval.check': { target: 'checking', reenter: true } },
    },
    shown: {
      always: { guard: ({ context }) => context.request === null, target: 'idle' },
      tags: ['asking'],
      on: {
        'secretApproval.confirm': 'approving',
        'secretApproval.decline': 'declining',
        'secretApproval.check': 'checking',
      },
    },
    idle: {
      on: { 'secretApproval.check': 'checking' },
    },
    approving: {
      tags: ['asking', 'busy'],
      invoke: {
        src: 'approve',
        input: ({ context }) => ({ userId: context.userId, request: context.request as ApprovalAsked }),
        onDone: { target: 'checking', actions: assign({ request: null, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    failed: {
      tags: ['asking', 'error'],
      on: {
        'secretApproval.retry': { target: 'approving', actions: assign({ error: null }) },
        'secretApproval.decline': 'declining',
      },
    },
    /** «Отклонить»: the new sign-in hears it; declined here even when the server could not be told. */
    declining: {
      tags: ['asking', 'busy'],
      invoke: {
        src: 'decline',
        input: ({ context }) => ({ userId: context.userId, request: context.request as ApprovalAsked }),
        onDone: { target: 'checking', actions: 'decline' },
        onError: { target: 'checking', actions: 'decline' },
      },
    },
    /** This device's own request was declined on another one. */
    declined: {
      tags: ['declined'],
      on: {
        'secretApproval.waiting': [
          { guard: ({ event }) => event.declined === true, actions: 'ownCode' },
          { target: 'checking', actions: 'ownCode' },
        ],
        'secretApproval.askAgain': { target: 'askingAgain', actions: assign({ error: null }) },
        'secretApproval.reset': { target: 'resetting', actions: assign({ error: null }) },
      },
    },
    askingAgain: {
      tags: ['declined', 'busy'],
      invoke: {
        src: 'askAgain',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: 'checking',
        onError: { target: 'declined', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    resetting: {
      tags: ['declined', 'busy'],
      invoke: {
        src: 'reset',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: 'checking',
        onError: { target: 'declined', actions: assign({ error: () => RESET_FAILED }) },
      },
    },
  },
});
