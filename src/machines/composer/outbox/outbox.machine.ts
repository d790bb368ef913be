// The outbox (docs/behaviour.md §2, §4, §5): the composer's child, one per signed-in user, so it covers every
// conversation.
// - Every send is an item (made by `outboxItem` from the part the composer hands over) with its own
//   clientMessageId, sent one after another in order: queued → sending → gone once the server has it (the message
//   then reaches the conversation and the list through `outbox.delivered`).
//   Files: the item is the temporary 'tmp-' message; its files are uploaded one after another with progress,
//   then one IMAGE message (all images) or FILE message is sent and the conversation refreshed. A voice
//   message is a one-file item sent as VOICE with its duration and waveform.
// - A failure leaves the item 'failed' with the server's reason when it gave one (say, a full disk's «На сервере
//   закончилось место»), else none ('upload failed' for an upload); it is retried on
//   'Повторить' and automatically on every socket (re)connection, or removed on 'Удалить'. The server's
//   idempotency on clientMessageId makes a retry of a send that did arrive harmless.
// - A file larger than the server's upload limit (read once from GET /api/instance) is refused at once, before any
//   upload, with 'Файл больше {n} МБ — такие файлы не отправляются' and no retry (docs/behaviour.md §10.1); so is
//   an upload the server refuses with a 4xx retrying cannot fix, with the server's reason.
// - The outbox store keeps the items across reloads (per user).
// - A secret chat's item is marked so when it is queued (the composer knows its conversation), or once the list
//   knows its chat as secret (an item kept from before the mark); its files go sealed and its text goes to this
//   browser's secret chat device, whose ref the composer passes on when it starts: without one the item waits for
//   it (DEVICE_WAIT_MS), then fails like a send that got no answer.
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import { failureOf, RequestFailure } from '../../../contract/failure';
import { fileTooLargeText } from '../../../contract/limits';
import { listenToServer } from '../../realtime/index';
import { notWired, notWiredCallback } from '../../shared/not-wired';
import {
  DEVICE_WAIT_MS,
  type OutboxContext,
  type OutboxEffects,
  type OutboxEvent,
  type OutboxInput,
  type OutboxParentEvent,
  type SendInput,
} from './outbox.protocol';
import {
  nextUpload,
  nextUploadBytes,
  type OutboxItem,
  outboxItem,
  restoredItem,
  sendBodyOf,
  storableItem,
  tooLargeFile,
  UPLOAD_FAILED,
  withSecretChats,
} from './outbox-item';

export * from './outbox.protocol';

export const outboxServerEvents = listenToServer<OutboxEvent>(
  {},
  { onConnected: () => ({ type: 'outbox.reconnected' }) },
);

/** Shown on a message the server refused without saying why. */
export const SEND_REFUSED = 'Сообщение не принято сервером';

const update = (items: OutboxItem[], id: string | null, change: (i: OutboxItem) => OutboxItem) =>
  items.map((i) => (i.id === id ? change(i) : i));
const activeItem = (c: OutboxContext) => c.items.find((i) => i.id === c.activeId);
/** An item with a file over the limit: failed for good, with the reason. */
const refusedTooLarge = (item: OutboxItem, limit: number): OutboxItem => ({
  ...item,
  status: 'failed',
  error: fileTooLargeText(limit),
  retryable: false,
});
const sendInputOf = (c: OutboxContext): SendInput => {
  const item = activeItem(c);
  if (!item) return null;
  if (!item.secret) return sendBodyOf(item);
  return { ...sendBodyOf(item), secret: true, ...(c.device ? { device: c.device } : {}) };
};

export const outboxMachine = setup({
  types: {
    context: {} as OutboxContext,
    events: {} as OutboxEvent,
    input: {} as OutboxInput,
  },
  actors: {
    serverEvents: outboxServerEvents,
    loadOutbox: notWired('outbox.loadOutbox') as OutboxEffects['loadOutbox'],
    loadUploadLimit: notWired('outbox.loadUploadLimit') as OutboxEffects['loadUploadLimit'],
    outboxStore: notWiredCallback('outbox.outboxStore') as OutboxEffects['outboxStore'],
    upload: notWiredCallback('outbox.upload') as OutboxEffects['upload'],
    sendMessage: notWired('outbox.sendMessage') as OutboxEffects['sendMessage'],
  },
  delays: { deviceWait: DEVICE_WAIT_MS },
  guards: {
    canRetry: ({ context, event }) => {
      assertEvent(event, 'outbox.retry');
      const item = context.items.find((i) => i.id === event.id);
      return item?.status === 'failed' && item.retryable;
    },
    /** Anything but the message being sent right now (that one is the server's already, or fails by itself). */
    canRemove: ({ context, event }) => {
      assertEvent(event, 'outbox.remove');
      const item = context.items.find((i) => i.id === event.id);
      return item !== undefined && item.status !== 'sending';
    },
    /** Removing the item being uploaded (an item being sent cannot be removed). */
    removesUpload: ({ context, event }) => {
      assertEvent(event, 'outbox.remove');
      return event.id === context.activeId && activeItem(context)?.status === 'uploading';
    },
    hasQueued: ({ context }) => context.items.some((i) => i.status === 'queued'),
    hasRetryable: ({ context }) => context.items.some((i) => i.status === 'failed' && i.retryable),
    activeTooLarge: ({ context }) => {
      const item = activeItem(context);
      return item !== undefined && tooLargeFile(item, context.uploadLimitBytes);
    },
    needsUpload: ({ context }) => {
      const item = activeItem(context);
      return item !== undefined && nextUpload(item) >= 0;
    },
    /** A secret chat's item and no device to hand it to yet. */
    awaitsDevice: ({ context }) => activeItem(context)?.secret === true && context.device === null,
    deviceCame: ({ event }) => {
      assertEvent(event, 'outbox.device');
      return event.device !== null;
    },
    moreUploads: ({ context, event }) => {
      assertEvent(event, 'upload.done');
      return (activeItem(context)?.files.filter((f) => !f.attachment).length ?? 0) > 1;
    },
  },
  actions: {
    add: assign(({ context, event }) => {
      assertEvent(event, 'outbox.add');
      const item = outboxItem(
        `${context.tag}-${context.seq + 1}`,
        event.conversationId,
        event.part,
        event.at,
        event.secret,
        event.threadRootId,
      );
      const limit = context.uploadLimitBytes;
      const added = limit !== null && tooLargeFile(item, limit) ? refusedTooLarge(item, limit) : item;
      return { seq: context.seq + 1, items: [...context.items, ...withSecretChats([added], context.secretChats)] };
    }),
    takeSecretChats: assign(({ context, event }) => {
      assertEvent(event, 'outbox.secretChats');
      return { secretChats: event.conversationIds, items: withSecretChats(context.items, event.conversationIds) };
    }),
    setDevice: assign({
      device: ({ event }) => {
        assertEvent(event, 'outbox.device');
        return event.device;
      },
    }),
    retry: assign({
      items: ({ context, event }) => {
        assertEvent(event, 'outbox.retry');
        return update(context.items, event.id, (i) => ({ ...i, status: 'queued', error: null }));
      },
    }),
    retryAll: assign({
      items: ({ context }) =>
        context.items.map((i) =>
          i.status === 'failed' && i.retryable ? { ...i, status: 'queued' as const, error: null } : i,
        ),
    }),
    remove: assign({
      items: ({ context, event }) => {
        assertEvent(event, 'outbox.remove');
        return context.items.filter((i) => i.id !== event.id);
      },
    }),
    forgetActive: assign({ activeId: null }),
    setUploadLimit: assign({ uploadLimitBytes: (_, limit: number) => limit }),
    // An item added before the limit was known, found too large when its turn comes.
    refuseActive: assign({
      items: ({ context }) =>
        update(context.items, context.activeId, (i) => refusedTooLarge(i, context.uploadLimitBytes ?? 0)),
      activeId: null,
    }),
    restore: assign({
      items: ({ context }, stored: OutboxItem[]) => {
        const restored = withSecretChats(stored.map(restoredItem), context.secretChats);
        const known = new Set(context.items.map((i) => i.id));
        return [...restored.filter((i) => !known.has(i.id)), ...context.items];
      },
    }),
    pickNext: assign(({ context }) => {
      const next = context.items.find((i) => i.status === 'queued');
      return next
        ? { activeId: next.id, items: update(context.items, next.id, (i) => ({ ...i, status: 'sending' })) }
        : {};
    }),
    markUploading: assign({
      items: ({ context }) => update(context.items, context.activeId, (i) => ({ ...i, status: 'uploading' })),
    }),
    markSending: assign({
      items: ({ context }) => update(context.items, context.activeId, (i) => ({ ...i, status: 'sending' })),
    }),
    progress: assign({
      items: ({ context, event }) => {
        assertEvent(event, 'upload.progress');
        return update(context.items, context.activeId, (i) => {
          const at = nextUpload(i);
          return { ...i, files: i.files.map((f, n) => (n === at ? { ...f, progress: event.percent } : f)) };
        });
      },
    }),
    uploaded: assign({
      items: ({ context, event }) => {
        assertEvent(event, 'upload.done');
        return update(context.items, context.activeId, (i) => {
          const at = nextUpload(i);
          return {
            ...i,
            // The bytes are the server's now; only the attachment is needed to send (and to survive a reload).
            files: i.files.map((f, n) =>
              n === at ? { ...f, progress: 100, file: null, attachment: event.attachment } : f,
            ),
          };
        });
      },
    }),
    // The server's reason, or 'upload failed' when none came; refused by the server itself, it is not offered again.
    uploadFailed: assign({
      items: ({ context, event }) => {
        assertEvent(event, 'upload.failed');
        const refused = event.retryable === false;
        return update(context.items, context.activeId, (i) => ({
          ...i,
          status: 'failed',
          error: event.message || UPLOAD_FAILED,
          retryable: !refused,
        }));
      },
      activeId: null,
    }),
    // A message the server refused is not retried automatically; anything else is. Either says why when the server
    // did (a full disk's 507 too); no answer at all leaves the plain «Не отправлено».
    sendFailed: assign({
      items: ({ context }, failure: RequestFailure) =>
        update(context.items, context.activeId, (i) => ({
          ...i,
          status: 'failed',
          error: failure.serverMessage ?? (failure.refused ? SEND_REFUSED : null),
          retryable: !failure.refused,
        })),
      activeId: null,
    }),
    // The server has the message: it leaves the outbox; the composer emits it for the list and the open
    // conversation. To the parent only when there is one: a graph test runs the outbox alone.
    delivered: enqueueActions(({ context, self, enqueue }, { message }: ResponseOf<'send'>) => {
      const item = activeItem(context);
      enqueue.assign({ items: context.items.filter((i) => i.id !== context.activeId), activeId: null });
      // A thread reply's files are in its thread: the timeline has nothing to read again.
      const refresh = item?.kind === 'files' && !item.threadRootId;
      const delivered: OutboxParentEvent = { type: 'outbox.delivered', message, refresh };
      if (self._parent) enqueue.sendParent(delivered);
    }),
    persist: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo('outboxStore', { type: 'outbox.save', items: context.items.map(storableItem) });
    }),
  },
}).createMachine({
  id: 'outbox',
  context: ({ input }) => ({
    userId: input.userId,
    tag: input.tag,
    seq: 0,
    items: [],
    activeId: null,
    uploadLimitBytes: null,
    secretChats: [],
    device: input.device ?? null,
  }),
  invoke: [
    { id: 'serverEvents', src: 'serverEvents' },
    // Unknown when it cannot be read: the server still refuses a larger file (413), without a retry.
    {
      id: 'loadUploadLimit',
      src: 'loadUploadLimit',
      onDone: { actions: { type: 'setUploadLimit', params: ({ event }) => event.output } },
      onError: { actions: [] },
    },
    { id: 'outboxStore', src: 'outboxStore', input: ({ context }) => ({ userId: context.userId }) },
  ],
  on: {
    'outbox.add': { actions: ['add', 'persist'] },
    'outbox.retry': { guard: 'canRetry', actions: ['retry', 'persist'] },
    'outbox.reconnected': { guard: 'hasRetryable', actions: ['retryAll', 'persist'] },
    'outbox.secretChats': { actions: ['takeSecretChats', 'persist'] },
    'outbox.device': { actions: 'setDevice' },
  },
  initial: 'restoring',
  states: {
    restoring: {
      invoke: {
        id: 'loadOutbox',
        src: 'loadOutbox',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: {
          target: 'idle',
          actions: [{ type: 'restore', params: ({ event }) => event.output ?? [] }, 'persist'],
        },
        onError: 'idle',
      },
      on: { 'outbox.remove': { guard: 'canRemove', actions: ['remove', 'persist'] } },
    },
    idle: {
      always: { guard: 'hasQueued', target: 'busy' },
      on: { 'outbox.remove': { guard: 'canRemove', actions: ['remove', 'persist'] } },
    },
    busy: {
      entry: 'pickNext',
      on: {
        'outbox.remove': [
          // Leaving 'uploading' stops the upload.
          { guard: 'removesUpload', target: 'idle', actions: ['remove', 'forgetActive', 'persist'] },
          { guard: 'canRemove', actions: ['remove', 'persist'] },
        ],
      },
      initial: 'routing',
      states: {
        routing: {
          always: [
            { guard: 'activeTooLarge', target: '#outbox.idle', actions: ['refuseActive', 'persist'] },
            { guard: 'needsUpload', target: 'uploading' },
            { guard: 'awaitsDevice', target: 'awaitingDevice' },
            { target: 'sending' },
          ],
        },
        uploading: {
          tags: ['uploading'],
          entry: 'markUploading',
          invoke: {
            id: 'upload',
            src: 'upload',
            input: ({ context }) => ({
              file: nextUploadBytes(activeItem(context)),
              conversationId: activeItem(context)?.conversationId,
              ...(activeItem(context)?.secret ? { secret: true } : {}),
            }),
          },
          on: {
            'upload.progress': { actions: 'progress' },
            'upload.done': [
              { guard: 'moreUploads', target: 'uploading', reenter: true, actions: ['uploaded', 'persist'] },
              { guard: 'awaitsDevice', target: 'awaitingDevice', actions: ['uploaded', 'persist'] },
              { target: 'sending', actions: ['uploaded', 'persist'] },
            ],
            'upload.failed': { target: '#outbox.idle', actions: ['uploadFailed', 'persist'] },
          },
        },
        // The first message of a secret chat just made is often sent before the chats page has started the device.
        awaitingDevice: {
          entry: 'markSending',
          after: {
            deviceWait: {
              target: '#outbox.idle',
              actions: [{ type: 'sendFailed', params: () => new RequestFailure(null, null) }, 'persist'],
            },
          },
          on: { 'outbox.device': { guard: 'deviceCame', target: 'sending', actions: 'setDevice' } },
        },
        sending: {
          entry: 'markSending',
          invoke: {
            id: 'sendMessage',
            src: 'sendMessage',
            input: ({ context }) => sendInputOf(context),
            onDone: {
              target: '#outbox.idle',
              actions: [{ type: 'delivered', params: ({ event }) => event.output }, 'persist'],
            },
            onError: {
              target: '#outbox.idle',
              actions: [{ type: 'sendFailed', params: ({ event }) => failureOf(event.error) }, 'persist'],
            },
          },
        },
      },
    },
  },
});

export type OutboxActorRef = import('xstate').ActorRefFrom<typeof outboxMachine>;
