// This browser as a device of secret chats (docs/secret-chats.md "The client"): it registers once (keys and key
// packages), runs one secretChat actor per secret chat (its children `chat:<id>`, each with a watcher that reports
// what it read and sent), routes the server's secret:log and secret:pending to them, and keeps what each ENCRYPTED
// message says for the views, and which members of each chat have no device yet. It lives while the chats page is
// open (registering in the background after the first paint) or the creation dialog is. It tells the composer when
// it starts and stops: the composer's outbox hands a secret chat's text to it.
import { assign, type EventObject, emit, enqueueActions, fromCallback, setup } from 'xstate';
import { failureOf } from '../../../contract/failure';
import { listenToServer } from '../../realtime/index';
import { notWired } from '../../shared/not-wired';
import { systemActor } from '../../shared/system';
import { secretChatMachine } from '../secretChat/secretChat.machine';
import {
  SECRET_DEVICE_RETRY_MS,
  SECRET_EDIT_FAILED,
  SECRET_REACT_FAILED,
  type SecretDeviceContext,
  type SecretDeviceEffects,
  type SecretDeviceEmitted,
  type SecretDeviceEvent,
  type SecretDeviceInput,
  type SecretDeviceRef,
} from './secretDevice.protocol';

export * from './secretDevice.protocol';

const FAILED = 'Секретные чаты недоступны: повторим попытку';

export const secretDeviceServerEvents = listenToServer<SecretDeviceEvent>(
  {
    'secret:log': (p) => ({ type: 'secretDevice.log', conversationId: p.conversationId, seq: p.seq, epoch: p.epoch }),
    'secret:pending': (p) => ({ type: 'secretDevice.pending', conversationIds: p.conversationIds }),
    'secret:firstDevice': (p) => ({
      type: 'secretDevice.firstDevice',
      userId: p.userId,
      conversationIds: p.conversationIds,
    }),
    // A secret message this socket hears of without the chat open: read now, not when it is first shown, so the
    // local search finds every message, and its keys are used while the device still holds them.
    'message:notify': (p) =>
      p.message.type === 'ENCRYPTED' && !p.message.control
        ? {
            type: 'secretDevice.need',
            conversationId: p.conversationId,
            messageId: p.message.id,
            ciphertext: p.message.content,
            createdAt: p.message.createdAt,
          }
        : null,
    'message:deleted': (p) => ({
      type: 'secretDevice.forget',
      conversationId: p.conversationId,
      messageId: p.messageId,
    }),
  },
  { onConnected: () => ({ type: 'secretDevice.sync' }) },
);

const chatId = (conversationId: string) => `chat:${conversationId}`;
function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const { [key]: _gone, ...rest } = record;
  return rest;
}

export const secretDeviceMachine = setup({
  types: {
    context: {} as SecretDeviceContext,
    events: {} as SecretDeviceEvent,
    input: {} as SecretDeviceInput,
    emitted: {} as SecretDeviceEmitted,
  },
  actors: {
    start: notWired('secretDevice.start') as SecretDeviceEffects['start'],
    serverEvents: secretDeviceServerEvents,
    /** Tells the composer this device runs, and when it stops that it is gone (its outbox sends secret texts here). */
    presence: fromCallback<EventObject, { device: SecretDeviceRef }>(({ input, system }) => {
      const composer = systemActor(system, 'composer');
      composer?.send({ type: 'composer.secretDevice', device: input.device });
      return () => composer?.send({ type: 'composer.secretDeviceGone', device: input.device });
    }),
    secretChat: secretChatMachine,
    watchChat: fromCallback(() => undefined) as SecretDeviceEffects['watchChat'],
    backfill: fromCallback(() => undefined) as SecretDeviceEffects['backfill'],
  },
  delays: { retry: SECRET_DEVICE_RETRY_MS },
  actions: {
    /** A secretChat actor (and its watcher) for each of these chats that has none yet. */
    ensureChats: assign(({ context, spawn }, ids: string[]) => {
      const fresh = [...new Set(ids)].filter((id) => !context.conversationIds.includes(id));
      for (const conversationId of fresh) {
        const chat = spawn('secretChat', {
          id: chatId(conversationId),
          input: { userId: context.userId, conversationId },
        });
        spawn('watchChat', {
          id: `watch:${conversationId}`,
          input: { userId: context.userId, conversationId, chat },
        });
      }
      return fresh.length > 0 ? { conversationIds: [...context.conversationIds, ...fresh] } : {};
    }),
  },
}).createMachine({
  id: 'secretDevice',
  context: ({ input }) => ({
    ...input,
    deviceId: null,
    conversationIds: [],
    withoutDevice: {},
    identityChanged: [],
    texts: {},
    notices: {},
    actions: {},
    actionFailures: {},
    error: null,
  }),
  // Its own ref (typed by its emitted events, which the ref inside the machine does not know).
  invoke: { id: 'presence', src: 'presence', input: ({ self }) => ({ device: self as unknown as SecretDeviceRef }) },
  initial: 'starting',
  on: {
    'secretDevice.need': {
      guard: ({ context, event }) => context.texts[event.messageId] === undefined,
      actions: [
        assign({ texts: ({ context, event }) => ({ ...context.texts, [event.messageId]: { status: 'reading' } }) }),
        { type: 'ensureChats', params: ({ event }) => [event.conversationId] },
        enqueueActions(({ enqueue, event }) => {
          if (event.type !== 'secretDevice.need') return;
          enqueue.sendTo(chatId(event.conversationId), {
            type: 'secretChat.received',
            item: { messageId: event.messageId, ciphertext: event.ciphertext, createdAt: event.createdAt },
          });
        }),
      ],
    },
    'secretDevice.send': {
      actions: [
        { type: 'ensureChats', params: ({ event }) => [event.conversationId] },
        // An edit or a reaction has no outbox line to turn red: a failure is told in the chat (actionFailures).
        assign({
          actions: ({ context, event }) => {
            const { kind } = event.item.envelope;
            if (kind !== 'edit' && kind !== 'reaction') return context.actions;
            const failed = kind === 'edit' ? SECRET_EDIT_FAILED : SECRET_REACT_FAILED;
            return {
              ...context.actions,
              [event.item.clientMessageId]: { conversationId: event.conversationId, failed },
            };
          },
        }),
        enqueueActions(({ enqueue, event, context }) => {
          if (event.type !== 'secretDevice.send') return;
          // A text written while members have no device is held for them (sent again once they have one).
          const absent = context.withoutDevice[event.conversationId] ?? [];
          const item =
            event.item.envelope.kind === 'text' && absent.length > 0 ? { ...event.item, holdFor: absent } : event.item;
          enqueue.sendTo(chatId(event.conversationId), { type: 'secretChat.send', item });
        }),
      ],
    },
    'secretDevice.log': {
      actions: [
        { type: 'ensureChats', params: ({ event }) => [event.conversationId] },
        enqueueActions(({ enqueue, event }) => {
          if (event.type !== 'secretDevice.log') return;
          enqueue.sendTo(chatId(event.conversationId), { type: 'secretChat.log', seq: event.seq, epoch: event.epoch });
        }),
      ],
    },
    'secretDevice.pending': {
      actions: [
        { type: 'ensureChats', params: ({ event }) => event.conversationIds },
        enqueueActions(({ enqueue, event }) => {
          if (event.type !== 'secretDevice.pending') return;
          for (const id of event.conversationIds) enqueue.sendTo(chatId(id), { type: 'secretChat.pending' });
        }),
      ],
    },
    // The member's first device: no longer without one; the chats commit it (secret:pending says so too, but the
    // two may arrive in either order).
    'secretDevice.firstDevice': {
      actions: [
        assign({
          withoutDevice: ({ context, event }) =>
            Object.fromEntries(
              Object.entries(context.withoutDevice)
                .map(([id, users]) => [
                  id,
                  event.conversationIds.includes(id) ? users.filter((u) => u !== event.userId) : users,
                ])
                .filter(([, users]) => users.length > 0),
            ),
        }),
        { type: 'ensureChats', params: ({ event }) => event.conversationIds },
        enqueueActions(({ enqueue, event }) => {
          if (event.type !== 'secretDevice.firstDevice') return;
          for (const id of event.conversationIds) enqueue.sendTo(chatId(id), { type: 'secretChat.pending' });
        }),
      ],
    },
    'secretDevice.identityChanged': {
      actions: assign({ identityChanged: ({ event }) => event.userIds }),
    },
    'secretDevice.withoutDevice': {
      actions: assign({
        withoutDevice: ({ context, event }) =>
          event.userIds.length > 0
            ? { ...context.withoutDevice, [event.conversationId]: event.userIds }
            : without(context.withoutDevice, event.conversationId),
      }),
    },
    'secretDevice.text': {
      actions: assign({
        texts: ({ context, event }) =>
          event.envelope.kind === 'text'
            ? {
                ...context.texts,
                [event.messageId]: {
                  status: 'text',
                  text: event.envelope.text,
                  replyToId: event.envelope.replyToId ?? null,
                  ...(event.edited ? { edited: event.edited } : {}),
                  ...(event.reactions?.length ? { reactions: event.reactions } : {}),
                  ...(event.envelope.attachments ? { attachments: event.envelope.attachments } : {}),
                  ...(event.senderUserId ? { from: event.senderUserId } : {}),
                },
              }
            : context.texts,
      }),
    },
    // Only for this device's secret chats: the watcher deletes the plaintext from the sealed store.
    'secretDevice.forget': {
      guard: ({ context, event }) => context.conversationIds.includes(event.conversationId),
      actions: [
        assign({
          texts: ({ context, event }) => {
            const { [event.messageId]: _gone, ...rest } = context.texts;
            return rest;
          },
        }),
        enqueueActions(({ enqueue, event }) => {
          if (event.type !== 'secretDevice.forget') return;
          enqueue.sendTo(`watch:${event.conversationId}`, event);
        }),
      ],
    },
    'secretDevice.unreadable': {
      actions: assign({
        texts: ({ context, event }) => ({ ...context.texts, [event.messageId]: { status: 'unreadable' } }),
      }),
    },
    'secretDevice.restored': {
      actions: assign({
        texts: ({ context }) =>
          Object.fromEntries(Object.entries(context.texts).filter(([, t]) => t.status !== 'unreadable')),
      }),
    },
    'secretDevice.notices': {
      actions: assign({
        notices: ({ context, event }) => ({ ...context.notices, [event.conversationId]: event.notices }),
      }),
    },
    'secretDevice.sent': {
      actions: [
        assign({ actions: ({ context, event }) => without(context.actions, event.clientMessageId) }),
        emit(({ event }) => ({
          type: 'secretDevice.sent' as const,
          clientMessageId: event.clientMessageId,
          messageId: event.messageId,
        })),
      ],
    },
    'secretDevice.sendFailed': {
      actions: [
        assign(({ context, event }) => {
          const action = context.actions[event.clientMessageId];
          if (!action) return {};
          return {
            actions: without(context.actions, event.clientMessageId),
            actionFailures: { ...context.actionFailures, [action.conversationId]: action.failed },
          };
        }),
        emit(({ event }) => ({
          type: 'secretDevice.sendFailed' as const,
          clientMessageId: event.clientMessageId,
          message: event.message,
        })),
      ],
    },
    'secretDevice.dismissFailure': {
      actions: assign({
        actionFailures: ({ context, event }) => without(context.actionFailures, event.conversationId),
      }),
    },
  },
  states: {
    starting: {
      tags: ['busy'],
      invoke: {
        id: 'start',
        src: 'start',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: {
          target: 'ready',
          actions: [
            assign({
              deviceId: ({ event }) => event.output.deviceId,
              withoutDevice: ({ event }) => event.output.withoutDevice,
              error: null,
            }),
            { type: 'ensureChats', params: ({ event }) => event.output.conversationIds },
            // Each chat catches up with what it may have missed while not listening.
            enqueueActions(({ enqueue, context }) => {
              for (const id of context.conversationIds)
                enqueue.sendTo(chatId(id), { type: 'secretChat.log', seq: 0, epoch: 0 });
            }),
          ],
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => failureOf(event.error).serverMessage ?? FAILED }),
        },
      },
    },
    ready: {
      tags: ['live'],
      invoke: [
        { id: 'serverEvents', src: 'serverEvents' },
        {
          id: 'backfill',
          src: 'backfill',
          input: ({ context }) => ({ userId: context.userId, conversationIds: context.conversationIds }),
        },
      ],
      on: {
        // After a reconnection: the chats it may have missed (a new one, a welcome) are listed again.
        'secretDevice.sync': 'starting',
      },
    },
    failed: {
      tags: ['error'],
      after: { retry: 'starting' },
      on: { 'secretDevice.retry': 'starting' },
    },
  },
});
