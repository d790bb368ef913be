// One secret conversation on this device (docs/secret-chats.md, "Lifecycle"): the device registers (keys
// and key packages), joins the group from its welcome in the log, then is ready to send and read. A log event, or
// a 409 on a send or a commit, makes it catch up (apply the log's commits and welcomes in order); devices to add or
// remove (GET /api/secret/state) make it commit. Fewer than LIMITS.keyPackagesLow key packages left on the server:
// it uploads more. A commit removing this device ends it. After joining, after each catch-up and every
// SECRET_LEAF_CHECK_MS while idle it asks whether an update of its own leaf is due (at least weekly, and at once
// after a removal: post-compromise security), and commits one if so. Every effect is a named actor provided by the
// wiring.
import { assign, emit, setup } from 'xstate';
import { failureOf } from '../../../contract/failure';
import { LIMITS } from '../../../contract/limits';
import { notWired } from '../../shared/not-wired';
import {
  type CatchUpResult,
  type CommitResult,
  type Incoming,
  type LeafUpdateResult,
  type Outgoing,
  type RegisterResult,
  SECRET_LEAF_CHECK_MS,
  SECRET_RETRY_MS,
  type SecretChatContext,
  type SecretChatEffects,
  type SecretChatEmitted,
  type SecretChatEvent,
  type SecretChatInput,
  type SecretChatWhere,
} from './secretChat.protocol';

export * from './secretChat.protocol';

type Where = SecretChatWhere;

const SEND_FAILED = 'Не удалось отправить секретное сообщение';
const UNREADABLE = 'Не удалось расшифровать сообщение';
const FAILED = 'Секретный чат недоступен: повторим попытку';
const errorText = (e: unknown, fallback: string) =>
  e instanceof Error && e.name === 'SecretCryptoError' ? e.message : (failureOf(e).serverMessage ?? fallback);
const isConflict = (e: unknown) => failureOf(e).status === 409;
const isGap = (e: unknown) => e instanceof Error && (e as { code?: string }).code === 'gap';

export const secretChatMachine = setup({
  types: {
    context: {} as SecretChatContext,
    events: {} as SecretChatEvent,
    input: {} as SecretChatInput,
    emitted: {} as SecretChatEmitted,
  },
  actors: {
    register: notWired('secretChat.register') as SecretChatEffects['register'],
    catchUp: notWired('secretChat.catchUp') as SecretChatEffects['catchUp'],
    commit: notWired('secretChat.commit') as SecretChatEffects['commit'],
    updateLeaf: notWired('secretChat.updateLeaf') as SecretChatEffects['updateLeaf'],
    send: notWired('secretChat.send') as SecretChatEffects['send'],
    decrypt: notWired('secretChat.decrypt') as SecretChatEffects['decrypt'],
    replenish: notWired('secretChat.replenish') as SecretChatEffects['replenish'],
  },
  delays: { retry: SECRET_RETRY_MS, leafCheck: SECRET_LEAF_CHECK_MS },
  guards: {
    member: (_, p: { epoch: number | null }) => p.epoch !== null,
    removed: (_, p: { removed: boolean }) => p.removed,
    /** Commits it could not apply left it outside the group: it asked to be added again. */
    rejoining: (_, p: CatchUpResult) => p.skipped > 0 && p.epoch === null,
    keyPackagesLow: ({ context }) =>
      !context.replenishFailed && context.keyPackagesLeft !== null && context.keyPackagesLeft < LIMITS.keyPackagesLow,
    commitDue: ({ context }) => context.commitDue,
    logDue: ({ context }) => context.logDue,
    leafDue: ({ context }) => context.leafDue,
    hasIncoming: ({ context }) => context.incoming.length > 0,
    hasOutgoing: ({ context }) => context.outgoing.length > 0,
    retrySend: ({ context }, p: { error: unknown }) => isConflict(p.error) && !context.sendRetried,
    waitForCommits: ({ context }, p: { error: unknown }) => isGap(p.error) && !context.readRetried,
    conflict: (_, p: { error: unknown }) => isConflict(p.error),
  },
  actions: {
    takeDevice: assign((_, r: RegisterResult) => ({ deviceId: r.deviceId, keyPackagesLeft: r.keyPackagesLeft })),
    takeLog: assign((_, r: CatchUpResult) => ({ seq: r.seq, epoch: r.epoch })),
    takeCommit: assign(({ context }, r: CommitResult) => ({
      seq: Math.max(context.seq, r.seq),
      epoch: r.epoch,
      keyPackagesLeft: r.keyPackagesLeft,
      replenishFailed: false,
      commitDue: false,
    })),
    checkLeaf: assign({ leafDue: true }),
    takeLeafUpdate: assign(({ context }, r: LeafUpdateResult) => ({
      leafDue: false,
      ...(r ? { seq: Math.max(context.seq, r.seq), epoch: r.epoch } : {}),
    })),
    fail: assign((_, p: { error: unknown }) => ({ error: errorText(p.error, FAILED) })),
    queueOut: assign(({ context }, item: Outgoing) => ({ outgoing: [...context.outgoing, item] })),
    queueIn: assign(({ context }, item: Incoming) => ({ incoming: [...context.incoming, item] })),
    sent: emit(({ context }, r: { messageId: string }) => ({
      type: 'secretChat.sent' as const,
      clientMessageId: context.outgoing[0]?.clientMessageId ?? '',
      messageId: r.messageId,
    })),
    sendFailed: emit(({ context }, p: { error: unknown }) => ({
      type: 'secretChat.sendFailed' as const,
      clientMessageId: context.outgoing[0]?.clientMessageId ?? '',
      message: errorText(p.error, SEND_FAILED),
    })),
    shiftOut: assign(({ context }) => ({ outgoing: context.outgoing.slice(1), sendRetried: false })),
    read: emit((_, r: { messageId: string }) => ({ type: 'secretChat.read' as const, messageId: r.messageId })),
    unreadable: emit(({ context }, p: { error: unknown }) => ({
      type: 'secretChat.unreadable' as const,
      messageId: context.incoming[0]?.messageId ?? '',
      message: errorText(p.error, UNREADABLE),
    })),
    shiftIn: assign(({ context }) => ({ incoming: context.incoming.slice(1), readRetried: false })),
    announceRemoved: emit({ type: 'secretChat.removed' as const }),
  },
}).createMachine({
  id: 'secretChat',
  context: ({ input }) => ({
    ...input,
    deviceId: null,
    seq: 0,
    epoch: null,
    keyPackagesLeft: null,
    outgoing: [],
    incoming: [],
    sendRetried: false,
    readRetried: false,
    commitDue: false,
    logDue: false,
    leafDue: false,
    replenishFailed: false,
    error: null,
  }),
  initial: 'registering',
  on: {
    'secretChat.send': { actions: { type: 'queueOut', params: ({ event }) => event.item } },
    'secretChat.received': { actions: { type: 'queueIn', params: ({ event }) => event.item } },
    'secretChat.pending': { actions: assign({ commitDue: true }) },
    // Every state hears it; `ready` and `awaitingWelcome` act on the flag, the others fetch again when done.
    'secretChat.log': { actions: assign({ logDue: true }) },
  },
  states: {
    registering: {
      tags: ['busy'],
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: 'joining', actions: { type: 'takeDevice', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    joining: {
      tags: ['busy'],
      entry: assign({ logDue: false }),
      invoke: {
        id: 'join',
        src: 'catchUp',
        input: ({ context }) => ({ ...where(context), after: context.seq }),
        onDone: [
          {
            guard: { type: 'member', params: ({ event }) => event.output },
            target: 'ready',
            actions: [{ type: 'takeLog', params: ({ event }) => event.output }, 'checkLeaf'],
          },
          {
            guard: { type: 'rejoining', params: ({ event }) => event.output },
            target: 'rejoining',
            actions: { type: 'takeLog', params: ({ event }) => event.output },
          },
          { target: 'awaitingWelcome', actions: { type: 'takeLog', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed', actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    /** Not in the group yet: its welcome comes with a later log event. */
    awaitingWelcome: {
      tags: ['waiting'],
      always: { guard: 'logDue', target: 'joining' },
    },
    /**
     * A commit of the log did not apply: skipped, the group's state on this device dropped, and a re-addition asked
     * (POST /api/secret/rejoin); the welcome of it comes with a later log event.
     */
    rejoining: {
      tags: ['rejoining'],
      always: { guard: 'logDue', target: 'joining' },
    },
    ready: {
      tags: ['live'],
      entry: assign({ error: null }),
      always: [
        { guard: 'logDue', target: 'catchingUp' },
        { guard: 'keyPackagesLow', target: 'replenishing' },
        { guard: 'commitDue', target: 'committing' },
        { guard: 'hasIncoming', target: 'reading' },
        { guard: 'hasOutgoing', target: 'sending' },
        { guard: 'leafDue', target: 'updatingLeaf' },
      ],
      after: { leafCheck: { actions: 'checkLeaf' } },
      on: {
        'secretChat.pending': { target: 'committing', actions: assign({ commitDue: true }) },
        'secretChat.received': {
          target: 'reading',
          actions: { type: 'queueIn', params: ({ event }) => event.item },
        },
        'secretChat.send': { target: 'sending', actions: { type: 'queueOut', params: ({ event }) => event.item } },
      },
    },
    catchingUp: {
      tags: ['live', 'busy'],
      entry: assign({ logDue: false }),
      invoke: {
        id: 'catchUp',
        src: 'catchUp',
        input: ({ context }) => ({ ...where(context), after: context.seq }),
        onDone: [
          {
            guard: { type: 'removed', params: ({ event }) => event.output },
            target: 'removed',
            actions: [{ type: 'takeLog', params: ({ event }) => event.output }, 'announceRemoved'],
          },
          {
            guard: { type: 'rejoining', params: ({ event }) => event.output },
            target: 'rejoining',
            actions: { type: 'takeLog', params: ({ event }) => event.output },
          },
          // A commit applied may have removed a device: this one's leaf update may be owed at once.
          { target: 'ready', actions: [{ type: 'takeLog', params: ({ event }) => event.output }, 'checkLeaf'] },
        ],
        onError: { target: 'failed', actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    updatingLeaf: {
      tags: ['live', 'busy'],
      invoke: {
        id: 'updateLeaf',
        src: 'updateLeaf',
        input: ({ context }) => where(context),
        onDone: { target: 'ready', actions: { type: 'takeLeafUpdate', params: ({ event }) => event.output } },
        onError: [
          // Another device's commit took the epoch: catch up, then ask again.
          { guard: { type: 'conflict', params: ({ event }) => ({ error: event.error }) }, target: 'catchingUp' },
          // Not now (offline, refused): the next check tries again.
          { target: 'ready', actions: assign({ leafDue: false }) },
        ],
      },
    },
    committing: {
      tags: ['live', 'busy'],
      invoke: {
        id: 'commit',
        src: 'commit',
        input: ({ context }) => where(context),
        onDone: { target: 'ready', actions: { type: 'takeCommit', params: ({ event }) => event.output } },
        onError: [
          // Another device's commit took the epoch: catch up, then commit again (commitDue stays).
          { guard: { type: 'conflict', params: ({ event }) => ({ error: event.error }) }, target: 'catchingUp' },
          // The devices are still owed their add or removal: the retry commits again (commitDue stays).
          { target: 'failed', actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    replenishing: {
      tags: ['live', 'busy'],
      invoke: {
        id: 'replenish',
        src: 'replenish',
        input: ({ context }) => ({
          userId: context.userId,
          deviceId: context.deviceId ?? '',
          left: context.keyPackagesLeft ?? 0,
        }),
        onDone: {
          target: 'ready',
          actions: assign({ keyPackagesLeft: ({ event }) => event.output.keyPackagesLeft }),
        },
        onError: { target: 'ready', actions: assign({ replenishFailed: true }) },
      },
    },
    sending: {
      tags: ['live', 'busy'],
      invoke: {
        id: 'send',
        src: 'send',
        input: ({ context }) => ({ ...where(context), item: context.outgoing[0] as Outgoing }),
        onDone: {
          target: 'ready',
          actions: [{ type: 'sent', params: ({ event }) => event.output }, 'shiftOut'],
        },
        onError: [
          // The epoch moved on: catch up and send it again, once.
          {
            guard: { type: 'retrySend', params: ({ event }) => ({ error: event.error }) },
            target: 'catchingUp',
            actions: assign({ sendRetried: true }),
          },
          {
            target: 'ready',
            actions: [{ type: 'sendFailed', params: ({ event }) => ({ error: event.error }) }, 'shiftOut'],
          },
        ],
      },
    },
    reading: {
      tags: ['live', 'busy'],
      invoke: {
        id: 'decrypt',
        src: 'decrypt',
        input: ({ context }) => ({ ...where(context), item: context.incoming[0] as Incoming }),
        onDone: {
          target: 'ready',
          actions: [{ type: 'read', params: ({ event }) => event.output }, 'shiftIn'],
        },
        onError: [
          // Of an epoch this device has not reached: apply the commits first, once.
          {
            guard: { type: 'waitForCommits', params: ({ event }) => ({ error: event.error }) },
            target: 'catchingUp',
            actions: assign({ readRetried: true }),
          },
          {
            target: 'ready',
            actions: [{ type: 'unreadable', params: ({ event }) => ({ error: event.error }) }, 'shiftIn'],
          },
        ],
      },
    },
    failed: {
      tags: ['error'],
      after: { retry: 'registering' },
      on: { 'secretChat.retry': 'registering' },
    },
    /** A commit removed this device: the conversation stays readable from the plaintext store, nothing more. */
    removed: {
      tags: ['removed'],
      on: { 'secretChat.send': {}, 'secretChat.received': {}, 'secretChat.pending': {} },
    },
  },
});

function where(context: SecretChatContext): Where {
  return { userId: context.userId, conversationId: context.conversationId, deviceId: context.deviceId ?? '' };
}
