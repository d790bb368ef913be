// The composer (docs/behaviour.md §2, §4): the draft, and the hand-over of what is sent to its outbox child.
// Invoked by the chats actor while signed in (child 'composer'), one per user.
// - Text and reply per conversation (a draft is kept when switching, and in the browser across reloads through
//   its drafts child). Submitting hands trimmed non-empty text
//   with the optional reply to the outbox, clears both and tells its parent `composer.sent` (the view scrolls
//   down). Attached files and a voice message from the recorder child go to the outbox the same way; the call's
//   chat panel sends a text to its conversation without touching the draft.
// - The outbox child (../outbox) queues, keeps, uploads, sends and retries; the composer passes its deliveries on
//   to its parent as `composer.delivered`.
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import { LIMITS } from '../../../contract/limits';
import { systemActor } from '../../shared/system';
import { outboxMachine } from '../outbox/outbox.machine';
import type { OutboxEvent } from '../outbox/outbox.protocol';
import { recorderMachine } from '../recorder/recorder.machine';
import { draftsMachine } from '../drafts/drafts.machine';
import type { DraftMap, DraftsEvent } from '../drafts/drafts.protocol';
import type { ComposerContext, ComposerEvent, ComposerInput, ComposerParentEvent } from './composer.protocol';

export * from './composer.protocol';

type Send = Extract<
  ComposerEvent,
  { type: 'composer.submit' | 'composer.attach' | 'composer.sendText' | 'recorder.recorded' }
>;

/** The outbox's `outbox.add` for a send: the conversation, and the part that differs by kind. */
function handedOver(context: ComposerContext, event: Send): OutboxEvent | null {
  if (event.type === 'composer.sendText') {
    return {
      type: 'outbox.add',
      conversationId: event.conversationId,
      part: { kind: 'text', content: event.text.trim(), replyTo: null },
      at: event.at,
    };
  }
  const conversationId = context.conversationId;
  if (conversationId === null) return null;
  switch (event.type) {
    case 'composer.submit':
      return {
        type: 'outbox.add',
        conversationId,
        part: {
          kind: 'text',
          content: context.text.trim(),
          replyTo: context.replyTo,
          ...(event.mentions?.length ? { mentions: event.mentions } : {}),
        },
        at: event.at,
      };
    case 'composer.attach':
      return {
        type: 'outbox.add',
        conversationId,
        part: { kind: 'files', files: event.files, ...(event.caption ? { caption: event.caption } : {}) },
        at: event.at,
      };
    case 'recorder.recorded': {
      const { file, durationMs, waveform, at } = event.recording;
      return { type: 'outbox.add', conversationId, part: { kind: 'voice', file, voice: { durationMs, waveform } }, at };
    }
  }
}

export const composerMachine = setup({
  types: {
    context: {} as ComposerContext,
    events: {} as ComposerEvent,
    input: {} as ComposerInput,
    children: {} as { recorder: 'recorder'; outbox: 'outbox'; drafts: 'drafts' },
  },
  actors: {
    /** The voice recorder (its recording actor is provided in src/machines/app/wiring/composer.ts). */
    recorder: recorderMachine,
    /** The outbox (its store, uploads and sends are provided in src/machines/app/wiring/composer.ts). */
    outbox: outboxMachine,
    /** Keeps the drafts in the browser (its store is provided in src/machines/app/wiring/composer.ts). */
    drafts: draftsMachine,
  },
  guards: {
    // Over the limit the text stays in the composer (the view says why) instead of failing on the server.
    canSubmit: ({ context }) =>
      context.conversationId !== null &&
      context.text.trim().length > 0 &&
      context.text.trim().length <= LIMITS.messageTextMax,
    hasConversation: ({ context }) => context.conversationId !== null,
    hasText: ({ event }) => {
      assertEvent(event, 'composer.sendText');
      return event.text.trim().length > 0;
    },
    canAttach: ({ context, event }) => {
      assertEvent(event, 'composer.attach');
      return context.conversationId !== null && event.files.length > 0;
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
    clearDraft: assign({ text: '', replyTo: null }),
    // Drafts read from the browser after a reload: what this page already has wins; the open conversation's
    // text comes back into the input.
    takeStoredDrafts: assign(({ context, event }) => {
      assertEvent(event, 'drafts.loaded');
      const drafts = { ...event.drafts, ...context.drafts };
      const id = context.conversationId;
      const here = id ? drafts[id] : undefined;
      if (!id || !here || context.text || context.replyTo) {
        if (id) delete drafts[id];
        return { drafts };
      }
      delete drafts[id];
      return { drafts, text: here.text, replyTo: here.replyTo };
    }),
    // Every change of a draft goes to the drafts child, which writes them all shortly after.
    storeDrafts: enqueueActions(({ context, enqueue }) => {
      const all: DraftMap = { ...context.drafts };
      if (context.conversationId && (context.text || context.replyTo))
        all[context.conversationId] = { text: context.text, replyTo: context.replyTo };
      const changed: DraftsEvent = { type: 'drafts.changed', drafts: all };
      enqueue.sendTo('drafts', changed);
    }),
    // What is sent goes to the outbox as the part that differs by kind; the outbox makes the item.
    handOver: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ['composer.submit', 'composer.attach', 'composer.sendText', 'recorder.recorded']);
      const add = handedOver(context, event);
      if (add) enqueue.sendTo('outbox', add);
    }),
    // To the parent only when there is one: a graph test runs the composer alone.
    announceSent: enqueueActions(({ context, self, enqueue }) => {
      const sent: ComposerParentEvent | null = context.conversationId
        ? { type: 'composer.sent', conversationId: context.conversationId }
        : null;
      if (sent && self._parent) enqueue.sendParent(sent);
    }),
    // The server has an own message: the chats actor takes it to the list and the open conversation.
    passDelivered: enqueueActions(({ event, self, enqueue }) => {
      assertEvent(event, 'outbox.delivered');
      const delivered: ComposerParentEvent = {
        type: 'composer.delivered',
        message: event.message,
        refresh: event.refresh,
      };
      if (self._parent) enqueue.sendParent(delivered);
    }),
  },
}).createMachine({
  id: 'composer',
  context: ({ input }) => ({
    userId: input.userId,
    tag: input.tag,
    conversationId: null,
    text: '',
    replyTo: null,
    drafts: {},
  }),
  invoke: [
    { id: 'outbox', src: 'outbox', input: ({ context }) => ({ userId: context.userId, tag: context.tag }) },
    { id: 'recorder', systemId: 'recorder', src: 'recorder' },
    { id: 'drafts', src: 'drafts', input: ({ context }) => ({ userId: context.userId }) },
  ],
  on: {
    'composer.focusConversation': { actions: ['focus', 'storeDrafts'] },
    'composer.input': { actions: ['setText', 'tellTyping', 'storeDrafts'] },
    'composer.reply': { actions: ['setReply', 'storeDrafts'] },
    'composer.clearReply': { actions: ['clearReply', 'storeDrafts'] },
    'composer.submit': {
      guard: 'canSubmit',
      actions: ['handOver', 'clearDraft', 'stopTyping', 'announceSent', 'storeDrafts'],
    },
    'drafts.loaded': { actions: 'takeStoredDrafts' },
    'composer.attach': { guard: 'canAttach', actions: ['handOver', 'announceSent'] },
    'recorder.recorded': { guard: 'hasConversation', actions: ['handOver', 'announceSent'] },
    'composer.sendText': { guard: 'hasText', actions: 'handOver' },
    'outbox.delivered': { actions: 'passDelivered' },
  },
});

export type ComposerActorRef = import('xstate').ActorRefFrom<typeof composerMachine>;
