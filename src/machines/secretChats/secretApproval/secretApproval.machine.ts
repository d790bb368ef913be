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
  type SecretApprovalContext,
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
    listen: notWiredCallback<SecretApprovalEvent, SecretApprovalInput>('secretApproval.listen'),
    pending: notWired<ApprovalAsked[], SecretApprovalInput>('secretApproval.pending'),
    approve: notWired<unknown, SecretApprovalInput & { request: ApprovalAsked }>('secretApproval.approve'),
  },
  actions: {
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
    'secretApproval.waiting': { actions: assign({ ownCode: ({ event }) => event.code }) },
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
        'secretApproval.decline': { target: 'checking', actions: 'decline' },
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
        'secretApproval.decline': { target: 'checking', actions: 'decline' },
      },
    },
  },
});
