// The composer and its outbox (docs/behaviour.md §2, §4, §5). Invoked by the chats actor while signed in
// (child 'composer'), one per user, so the outbox covers every conversation.
// - Text and reply per conversation (a draft is kept when switching). Submitting sends trimmed non-empty
//   text with the optional reply, clears both and tells its parent `composer.sent` (the view scrolls down).
// - Every send is an outbox item with its own clientMessageId, sent one after another in order:
//   queued → sending → gone once the server has it (the message then reaches the conversation and the list).
//   Files: the item is the temporary 'tmp-' message; its files are uploaded one after another with progress,
//   then one IMAGE message (all images) or FILE message is sent and the conversation refreshed. A voice
//   message from the recorder child is a one-file item sent as VOICE with its duration and waveform.
// - A failure leaves the item 'failed' with its reason ('upload failed' for an upload); it is retried on
//   'Повторить' and automatically on every socket (re)connection, or removed on 'Удалить'. The server's
//   idempotency on clientMessageId makes a retry of a send that did arrive harmless.
// - The outbox store keeps the items across reloads (per user).
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import type { BodyOf, ResponseOf } from '../../../../contract/api';
import { failureOf, type RequestFailure } from '../../../../contract/failure';
import { notWired, notWiredCallback } from '../../../../core/machines/not-wired';
import { recorderMachine } from '../recorder/recorder.machine';
import { listenToServer } from '../../../../core/machines/realtime/listen-to-server';
import { systemActor } from '../../../../core/machines/system';
import type { ComposerContext, ComposerEvent, ComposerInput, ComposerParentEvent, OutboxStoreCommand } from './composer.protocol';
import {
  nextUpload,
  type OutboxItem,
  pendingFile,
  restoredItem,
  sendBodyOf,
  storableItem,
  tempId,
  UPLOAD_FAILED,
} from './outbox';

export * from './composer.protocol';

export const composerServerEvents = listenToServer<ComposerEvent>({}, { onConnected: () => ({ type: 'composer.reconnected' }) });

/** Shown on a message the server refused without saying why. */
export const SEND_REFUSED = 'Сообщение не принято сервером';

const update = (outbox: OutboxItem[], id: string | null, change: (i: OutboxItem) => OutboxItem) =>
  outbox.map((i) => (i.id === id ? change(i) : i));
const activeItem = (c: ComposerContext) => c.outbox.find((i) => i.id === c.activeId);

export const composerMachine = setup({
  types: {
    context: {} as ComposerContext,
    events: {} as ComposerEvent,
    input: {} as ComposerInput,
  },
  actors: {
    serverEvents: composerServerEvents,
    loadOutbox: notWired<OutboxItem[], { userId: string }>('composer.loadOutbox'),
    outboxStore: notWiredCallback<OutboxStoreCommand, { userId: string }>('composer.outboxStore'),
    upload: notWiredCallback<{ type: string }, { file: Blob & { name?: string } }>('composer.upload'),
    sendMessage: notWired<ResponseOf<'send'>, BodyOf<'send'>>('composer.sendMessage'),
    /** The voice recorder (its recording actor is provided in src/features/chats/wiring.ts). */
    recorder: recorderMachine,
  },
  guards: {
    canSubmit: ({ context }) => context.conversationId !== null && context.text.trim().length > 0,
    hasConversation: ({ context }) => context.conversationId !== null,
    hasText: ({ event }) => {
      assertEvent(event, 'composer.sendText');
      return event.text.trim().length > 0;
    },
    canAttach: ({ context, event }) => {
      assertEvent(event, 'composer.attach');
      return context.conversationId !== null && event.files.length > 0;
    },
    canRetry: ({ context, event }) => {
      assertEvent(event, 'composer.retry');
      const item = context.outbox.find((i) => i.id === event.id);
      return item?.status === 'failed' && item.retryable;
    },
    /** Anything but the message being sent right now (that one is the server's already, or fails by itself). */
    canRemove: ({ context, event }) => {
      assertEvent(event, 'composer.remove');
      const item = context.outbox.find((i) => i.id === event.id);
      return item !== undefined && item.status !== 'sending';
    },
    /** Removing the item being uploaded (an item being sent cannot be removed). */
    removesUpload: ({ context, event }) => {
      assertEvent(event, 'composer.remove');
      return event.id === context.activeId && activeItem(context)?.status === 'uploading';
    },
    hasQueued: ({ context }) => context.outbox.some((i) => i.status === 'queued'),
    hasRetryable: ({ context }) => context.outbox.some((i) => i.status === 'failed' && i.retryable),
    needsUpload: ({ context }) => {
      const item = activeItem(context);
      return item !== undefined && nextUpload(item) >= 0;
    },
    moreUploads: ({ context, event }) => {
      assertEvent(event, 'upload.done');
      const item = activeItem(context)!;
      return item.files.filter((f) => !f.attachment).length > 1;
    },
  },
  actions: {
    focus: assign(({ context, event }) => {
      assertEvent(event, 'composer.focusConversation');
      const drafts = { ...context.drafts };
      if (context.conversationId && (context.text || context.replyTo)) {
        drafts[context.conversationId] = { text: context.text, replyTo: context.replyTo };
      } else if (context.conversationId) delete drafts[context.conversationId];
      const next = event.conversationId ? drafts[event.conversationId] : undefined;
      if (event.conversationId) delete drafts[event.conversationId];
      return { conversationId: event.conversationId, text: next?.text ?? '', replyTo: next?.replyTo ?? null, drafts };
    }),
    setText: assign({
      text: ({ event }) => {
        assertEvent(event, 'composer.input');
        return event.text;
      },
    }),
    // Typing indicators follow the input: a keystroke while there is text, a stop when it is cleared.
    tellTyping: enqueueActions(({ event, system, enqueue }) => {
      assertEvent(event, 'composer.input');
      const typing = systemActor(system, 'typing');
      if (typing) enqueue.sendTo(typing, { type: event.text.trim() ? 'typing.keystroke' : 'typing.stop' });
    }),
    stopTyping: enqueueActions(({ system, enqueue }) => {
      const typing = systemActor(system, 'typing');
      if (typing) enqueue.sendTo(typing, { type: 'typing.stop' });
    }),
    setReply: assign({
      replyTo: ({ event }) => {
        assertEvent(event, 'composer.reply');
        return { id: event.messageId, content: event.content };
      },
    }),
    clearReply: assign({ replyTo: null }),
    enqueueText: assign(({ context, event }) => {
      assertEvent(event, 'composer.submit');
      const clientMessageId = `${context.tag}-${context.seq + 1}`;
      const item: OutboxItem = {
        id: tempId(clientMessageId),
        clientMessageId,
        conversationId: context.conversationId!,
        kind: 'text',
        content: context.text.trim(),
        replyTo: context.replyTo,
        files: [],
        status: 'queued',
        error: null,
        retryable: true,
        createdAt: event.at,
      };
      return { seq: context.seq + 1, outbox: [...context.outbox, item], text: '', replyTo: null };
    }),
    enqueueFiles: assign(({ context, event }) => {
      assertEvent(event, 'composer.attach');
      const clientMessageId = `${context.tag}-${context.seq + 1}`;
      const item: OutboxItem = {
        id: tempId(clientMessageId),
        clientMessageId,
        conversationId: context.conversationId!,
        kind: 'files',
        content: '',
        replyTo: null,
        files: event.files.map(pendingFile),
        status: 'queued',
        error: null,
        retryable: true,
        createdAt: event.at,
      };
      return { seq: context.seq + 1, outbox: [...context.outbox, item] };
    }),
    enqueueChatText: assign(({ context, event }) => {
      assertEvent(event, 'composer.sendText');
      const clientMessageId = `${context.tag}-${context.seq + 1}`;
      const item: OutboxItem = {
        id: tempId(clientMessageId),
        clientMessageId,
        conversationId: event.conversationId,
        kind: 'text',
        content: event.text.trim(),
        replyTo: null,
        files: [],
        status: 'queued',
        error: null,
        retryable: true,
        createdAt: event.at,
      };
      return { seq: context.seq + 1, outbox: [...context.outbox, item] };
    }),
    enqueueVoice: assign(({ context, event }) => {
      assertEvent(event, 'recorder.recorded');
      const clientMessageId = `${context.tag}-${context.seq + 1}`;
      const { file, durationMs, waveform, at } = event.recording;
      const named = Object.assign(file, { name: file.type.includes('mp4') ? 'voice.m4a' : 'voice.webm' });
      const item: OutboxItem = {
        id: tempId(clientMessageId),
        clientMessageId,
        conversationId: context.conversationId!,
        kind: 'voice',
        content: '',
        voice: { durationMs, waveform },
        replyTo: null,
        files: [pendingFile(named)],
        status: 'queued',
        error: null,
        retryable: true,
        createdAt: at,
      };
      return { seq: context.seq + 1, outbox: [...context.outbox, item] };
    }),
    // To the parent only when there is one: a graph test runs the composer alone.
    announceSent: enqueueActions(({ context, self, enqueue }) => {
      const sent: ComposerParentEvent | null = context.conversationId ? { type: 'composer.sent', conversationId: context.conversationId } : null;
      if (sent && self._parent) enqueue.sendParent(sent);
    }),
    retry: assign({
      outbox: ({ context, event }) => {
        assertEvent(event, 'composer.retry');
        return update(context.outbox, event.id, (i) => ({ ...i, status: 'queued', error: null }));
      },
    }),
    retryAll: assign({
      outbox: ({ context }) =>
        context.outbox.map((i) => (i.status === 'failed' && i.retryable ? { ...i, status: 'queued' as const, error: null } : i)),
    }),
    remove: assign({
      outbox: ({ context, event }) => {
        assertEvent(event, 'composer.remove');
        return context.outbox.filter((i) => i.id !== event.id);
      },
    }),
    forgetActive: assign({ activeId: null }),
    restore: assign({
      outbox: ({ context }, stored: OutboxItem[]) => {
        const restored = stored.map(restoredItem);
        const known = new Set(context.outbox.map((i) => i.id));
        return [...restored.filter((i) => !known.has(i.id)), ...context.outbox];
      },
    }),
    pickNext: assign(({ context }) => {
      const next = context.outbox.find((i) => i.status === 'queued')!;
      return { activeId: next.id, outbox: update(context.outbox, next.id, (i) => ({ ...i, status: 'sending' })) };
    }),
    markUploading: assign({
      outbox: ({ context }) => update(context.outbox, context.activeId, (i) => ({ ...i, status: 'uploading' })),
    }),
    markSending: assign({
      outbox: ({ context }) => update(context.outbox, context.activeId, (i) => ({ ...i, status: 'sending' })),
    }),
    progress: assign({
      outbox: ({ context, event }) => {
        assertEvent(event, 'upload.progress');
        return update(context.outbox, context.activeId, (i) => {
          const at = nextUpload(i);
          return { ...i, files: i.files.map((f, n) => (n === at ? { ...f, progress: event.percent } : f)) };
        });
      },
    }),
    uploaded: assign({
      outbox: ({ context, event }) => {
        assertEvent(event, 'upload.done');
        return update(context.outbox, context.activeId, (i) => {
          const at = nextUpload(i);
          return {
            ...i,
            // The bytes are the server's now; only the attachment is needed to send (and to survive a reload).
            files: i.files.map((f, n) => (n === at ? { ...f, progress: 100, file: null, attachment: event.attachment } : f)),
          };
        });
      },
    }),
    uploadFailed: assign({
      outbox: ({ context }) =>
        update(context.outbox, context.activeId, (i) => ({ ...i, status: 'failed', error: UPLOAD_FAILED, retryable: true })),
      activeId: null,
    }),
    // A message the server refused is not retried automatically and says why; anything else is retried.
    sendFailed: assign({
      outbox: ({ context }, failure: RequestFailure) =>
        update(context.outbox, context.activeId, (i) => ({
          ...i,
          status: 'failed',
          error: failure.refused ? (failure.serverMessage ?? SEND_REFUSED) : null,
          retryable: !failure.refused,
        })),
      activeId: null,
    }),
    // The server has the message: it leaves the outbox and goes, through the chats actor, to the list and the
    // open conversation.
    delivered: enqueueActions(({ context, self, enqueue }, { message }: ResponseOf<'send'>) => {
      const item = activeItem(context);
      enqueue.assign({ outbox: context.outbox.filter((i) => i.id !== context.activeId), activeId: null });
      const delivered: ComposerParentEvent = { type: 'composer.delivered', message, refresh: item?.kind === 'files' };
      if (self._parent) enqueue.sendParent(delivered);
    }),
    persist: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo('outboxStore', { type: 'outbox.save', items: context.outbox.map(storableItem) });
    }),
  },
}).createMachine({
  id: 'composer',
  context: ({ input }) => ({
    userId: input.userId,
    tag: input.tag,
    seq: 0,
    conversationId: null,
    text: '',
    replyTo: null,
    drafts: {},
    outbox: [],
    activeId: null,
  }),
  invoke: [
    { id: 'serverEvents', src: 'serverEvents' },
    { id: 'outboxStore', src: 'outboxStore', input: ({ context }) => ({ userId: context.userId }) },
    { id: 'recorder', systemId: 'recorder', src: 'recorder' },
  ],
  on: {
    'composer.focusConversation': { actions: 'focus' },
    'composer.input': { actions: ['setText', 'tellTyping'] },
    'composer.reply': { actions: 'setReply' },
    'composer.clearReply': { actions: 'clearReply' },
    'composer.submit': { guard: 'canSubmit', actions: ['enqueueText', 'stopTyping', 'announceSent', 'persist'] },
    'composer.attach': { guard: 'canAttach', actions: ['enqueueFiles', 'announceSent', 'persist'] },
    'recorder.recorded': { guard: 'hasConversation', actions: ['enqueueVoice', 'announceSent', 'persist'] },
    'composer.sendText': { guard: 'hasText', actions: ['enqueueChatText', 'persist'] },
    'composer.retry': { guard: 'canRetry', actions: ['retry', 'persist'] },
    'composer.reconnected': { guard: 'hasRetryable', actions: ['retryAll', 'persist'] },
  },
  initial: 'restoring',
  states: {
    restoring: {
      invoke: {
        id: 'loadOutbox',
        src: 'loadOutbox',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: 'idle', actions: [{ type: 'restore', params: ({ event }) => event.output ?? [] }, 'persist'] },
        onError: 'idle',
      },
      on: { 'composer.remove': { guard: 'canRemove', actions: ['remove', 'persist'] } },
    },
    idle: {
      always: { guard: 'hasQueued', target: 'busy' },
      on: { 'composer.remove': { guard: 'canRemove', actions: ['remove', 'persist'] } },
    },
    busy: {
      entry: 'pickNext',
      on: {
        'composer.remove': [
          // Leaving 'uploading' stops the upload.
          { guard: 'removesUpload', target: 'idle', actions: ['remove', 'forgetActive', 'persist'] },
          { guard: 'canRemove', actions: ['remove', 'persist'] },
        ],
      },
      initial: 'routing',
      states: {
        routing: {
          always: [{ guard: 'needsUpload', target: 'uploading' }, { target: 'sending' }],
        },
        uploading: {
          tags: ['uploading'],
          entry: 'markUploading',
          invoke: {
            id: 'upload',
            src: 'upload',
            input: ({ context }) => {
              const item = activeItem(context)!;
              return { file: item.files[nextUpload(item)].file! };
            },
          },
          on: {
            'upload.progress': { actions: 'progress' },
            'upload.done': [
              { guard: 'moreUploads', target: 'uploading', reenter: true, actions: ['uploaded', 'persist'] },
              { target: 'sending', actions: ['uploaded', 'persist'] },
            ],
            'upload.failed': { target: '#composer.idle', actions: ['uploadFailed', 'persist'] },
          },
        },
        sending: {
          entry: 'markSending',
          invoke: {
            id: 'sendMessage',
            src: 'sendMessage',
            input: ({ context }) => sendBodyOf(activeItem(context)!),
            onDone: { target: '#composer.idle', actions: [{ type: 'delivered', params: ({ event }) => event.output }, 'persist'] },
            onError: {
              target: '#composer.idle',
              actions: [{ type: 'sendFailed', params: ({ event }) => failureOf(event.error) }, 'persist'],
            },
          },
        },
      },
    },
  },
});

export type ComposerActorRef = import('xstate').ActorRefFrom<typeof composerMachine>;
