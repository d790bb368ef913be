// The composer (docs/behaviour.md §2, §4): the draft, and the hand-over of what is sent to its outbox child.
// Session-long (systemId 'composer', spawned by the app actor); while signed in it runs its children, one outbox
// and one set of drafts per user, so what is queued outlives the conversation it was written in.
// - It follows the chats actor's selection (its emitted `chats.selected`, with whether the chat is secret): the
//   text and reply are per conversation (a draft is kept when switching, and in the browser across reloads through
//   its drafts child). Submitting hands trimmed non-empty text with the optional reply to the outbox, clears both
//   and emits `composer.sent` (the open conversation scrolls down). Attached files and a voice message from the
//   recorder child go to the outbox the same way; the call's chat panel sends a text to its conversation without
//   touching the draft, and the thread panel its replies (text or files, with the thread's root) the same way.
//   Each item carries the secret flag it was written under, for the outbox's effects. The outbox also hears which
//   chats the list knows as secret (the chats actor's emitted `chats.secretChats`), and the secret chat device,
//   which tells the composer when it starts and stops (`composer.secretDevice`, `composer.secretDeviceGone`).
// - The outbox child (../outbox) queues, keeps, uploads, sends and retries; the composer emits its deliveries as
//   `composer.delivered`, heard by the chats list and the open conversation.
import { assertEvent, assign, type EventObject, enqueueActions, fromCallback, sendTo, setup } from 'xstate';
import { LIMITS } from '../../../contract/limits';
import { onChats } from '../../chats/chats/chats.protocol';
import { watchSignedInUser } from '../../session/index';
import { present } from '../../shared/present';
import { systemActor } from '../../shared/system';
import { draftsMachine } from '../drafts/drafts.machine';
import type { DraftMap, DraftsEvent } from '../drafts/drafts.protocol';
import { outboxMachine } from '../outbox/outbox.machine';
import type { OutboxEvent } from '../outbox/outbox.protocol';
import { newOutboxTag } from '../outbox/outbox-item';
import { recorderMachine } from '../recorder/recorder.machine';
import {
  type ComposerContext,
  type ComposerEmitted,
  type ComposerEvent,
  type ComposerInput,
  threadDraftKey,
} from './composer.protocol';

export * from './composer.protocol';

type Send = Extract<
  ComposerEvent,
  { type: 'composer.submit' | 'composer.attach' | 'composer.sendText' | 'recorder.recorded' | 'composer.threadReply' }
>;

/** The outbox's `outbox.add` for a send: the conversation, and the part that differs by kind. */
function handedOver(context: ComposerContext, event: Send): OutboxEvent | null {
  if (event.type === 'composer.threadReply') {
    const { conversationId, rootId, part, at } = event;
    return { type: 'outbox.add', conversationId, part, at, threadRootId: rootId };
  }
  // A voice message recorded from a thread panel goes to its thread.
  if (event.type === 'recorder.recorded' && event.thread) {
    const { file, durationMs, waveform, at } = event.recording;
    const { conversationId, rootId } = event.thread;
    const part = { kind: 'voice' as const, file, voice: { durationMs, waveform } };
    return { type: 'outbox.add', conversationId, part, at, threadRootId: rootId };
  }
  if (event.type === 'composer.sendText') {
    return {
      type: 'outbox.add',
      conversationId: event.conversationId,
      part: { kind: 'text', content: event.text.trim(), replyTo: null },
      at: event.at,
      ...(event.secret ? { secret: true } : {}),
    };
  }
  const conversationId = context.conversationId;
  if (conversationId === null) return null;
  const add = handedPart(context, event);
  return context.secret ? { ...add, conversationId, secret: true } : { ...add, conversationId };
}

function handedPart(
  context: ComposerContext,
  event: Exclude<Send, { type: 'composer.sendText' | 'composer.threadReply' }>,
): Omit<Extract<OutboxEvent, { type: 'outbox.add' }>, 'conversationId'> {
  switch (event.type) {
    case 'composer.submit': {
      // The markers typed, read by the pane (src/contract/text-markup.ts, not in the first screen's code), become
      // formatting (docs/behaviour.md §10.42 Formatting); a secret chat's text goes as typed: its ciphertext carries text alone.
      const marked = context.secret ? undefined : event.formatted;
      const text = marked ? marked.text : context.text.trim();
      const entities = marked?.entities ?? [];
      return {
        type: 'outbox.add',
        part: {
          kind: 'text',
          content: text,
          replyTo: context.replyTo,
          ...(event.mentions?.length ? { mentions: event.mentions } : {}),
          ...(entities.length ? { entities } : {}),
        },
        at: event.at,
      };
    }
    case 'composer.attach':
      return {
        type: 'outbox.add',
        part: { kind: 'files', files: event.files, ...(event.caption ? { caption: event.caption } : {}) },
        at: event.at,
      };
    case 'recorder.recorded': {
      const { file, durationMs, waveform, at } = event.recording;
      return { type: 'outbox.add', part: { kind: 'voice', file, voice: { durationMs, waveform } }, at };
    }
  }
}

export const composerMachine = setup({
  types: {
    context: {} as ComposerContext,
    events: {} as ComposerEvent,
    input: {} as ComposerInput,
    emitted: {} as ComposerEmitted,
    children: {} as { recorder: 'recorder'; outbox: 'outbox'; drafts: 'drafts' },
  },
  actors: {
    session: watchSignedInUser('composer.signedIn', 'composer.signedOut'),
    /**
     * The chats actor's selections (its emitted `chats.selected`) as `composer.focusConversation`, and the chats it
     * knows as secret (`chats.secretChats`) as `composer.secretChats`.
     */
    selections: fromCallback<EventObject, void, ComposerEvent>(({ system, sendBack }) => {
      const stops = [
        onChats(system, 'chats.selected', (e) =>
          sendBack({ type: 'composer.focusConversation', conversationId: e.conversationId, secret: e.secret }),
        ),
        onChats(system, 'chats.secretChats', (e) =>
          sendBack({ type: 'composer.secretChats', conversationIds: e.conversationIds }),
        ),
      ];
      return () => {
        for (const stop of stops) stop();
      };
    }),
    /** The voice recorder (its recording actor is provided in src/services/composer/composer.effects.ts). */
    recorder: recorderMachine,
    /** The outbox (its store, uploads and sends are provided in src/services/composer/composer.effects.ts). */
    outbox: outboxMachine,
    /** Keeps the drafts in the browser (its store is provided in src/services/composer/composer.effects.ts). */
    drafts: draftsMachine,
  },
  guards: {
    // Over the limit the text stays in the composer (the view says why) instead of failing on the server.
    canSubmit: ({ context }) =>
      context.conversationId !== null &&
      context.secret !== null &&
      context.text.trim().length > 0 &&
      context.text.trim().length <= LIMITS.messageTextMax,
    hasConversation: ({ context }) => context.conversationId !== null && context.secret !== null,
    /** The device that stopped is the one known (a new one may have said it started first). */
    isOurDevice: ({ context, event }) => {
      assertEvent(event, 'composer.secretDeviceGone');
      return context.device === event.device;
    },
    forThread: ({ event }) => event.type === 'recorder.recorded' && event.thread !== undefined,
    hasText: ({ event }) => {
      assertEvent(event, 'composer.sendText');
      return event.text.trim().length > 0;
    },
    /** A thread reply with something in it: a text, or files. */
    hasReply: ({ event }) => {
      assertEvent(event, 'composer.threadReply');
      const { part } = event;
      return part.kind === 'text' ? part.content.trim().length > 0 : part.files.length > 0;
    },
    canAttach: ({ context, event }) => {
      assertEvent(event, 'composer.attach');
      return context.conversationId !== null && context.secret !== null && event.files.length > 0;
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
      return {
        conversationId: event.conversationId,
        secret: event.secret === undefined ? false : event.secret,
        text: next?.text ?? '',
        replyTo: next?.replyTo ?? null,
        drafts,
      };
    }),
    setDevice: assign({
      device: ({ event }) => {
        assertEvent(event, ['composer.secretDevice', 'composer.secretDeviceGone']);
        return event.type === 'composer.secretDevice' ? event.device : null;
      },
    }),
    tellOutboxDevice: sendTo('outbox', ({ context }) => ({ type: 'outbox.device' as const, device: context.device })),
    tellOutboxSecretChats: sendTo('outbox', ({ event }) => {
      assertEvent(event, 'composer.secretChats');
      return { type: 'outbox.secretChats' as const, conversationIds: event.conversationIds };
    }),
    rememberUser: assign(({ context, event }) => {
      assertEvent(event, 'composer.signedIn');
      // A fixed tag (tests) or a fresh one per sign-in: the prefix of the outbox's clientMessageIds.
      return { userId: event.userId, tag: context.fixedTag ?? newOutboxTag() };
    }),
    // Nothing of the user who signed out carries over (their drafts are kept in the browser).
    reset: assign({
      userId: null,
      tag: null,
      conversationId: null,
      secret: false,
      text: '',
      replyTo: null,
      drafts: {},
    }),
    // No recording outlives the user who made it (the microphone is released; a failure notice goes).
    stopRecorder: enqueueActions(({ enqueue }) => {
      enqueue.sendTo('recorder', { type: 'recorder.cancel' });
      enqueue.sendTo('recorder', { type: 'recorder.dismiss' });
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
    // A thread's draft sits with the others (an empty one is dropped).
    setThreadDraft: assign({
      drafts: ({ context, event }) => {
        assertEvent(event, 'composer.threadDraft');
        const drafts = { ...context.drafts };
        const key = threadDraftKey(event.rootId);
        if (event.draft.text || event.draft.replyTo) drafts[key] = event.draft;
        else delete drafts[key];
        return drafts;
      },
    }),
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
      assertEvent(event, [
        'composer.submit',
        'composer.attach',
        'composer.sendText',
        'recorder.recorded',
        'composer.threadReply',
      ]);
      const add = handedOver(context, event);
      if (add) enqueue.sendTo('outbox', add);
    }),
    // Heard by the open conversation (it goes to the bottom).
    announceSent: enqueueActions(({ context, enqueue }) => {
      if (context.conversationId) enqueue.emit({ type: 'composer.sent', conversationId: context.conversationId });
    }),
    // The server has an own message: heard by the chats list and the open conversation.
    passDelivered: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'outbox.delivered');
      enqueue.emit({ type: 'composer.delivered', message: event.message, refresh: event.refresh });
    }),
  },
}).createMachine({
  id: 'composer',
  context: ({ input }) => ({
    fixedTag: input?.tag ?? null,
    userId: null,
    tag: null,
    conversationId: null,
    secret: false,
    text: '',
    replyTo: null,
    drafts: {},
    device: null,
  }),
  on: {
    'composer.secretDevice': { actions: 'setDevice' },
    'composer.secretDeviceGone': { guard: 'isOurDevice', actions: 'setDevice' },
  },
  invoke: [
    { id: 'session', src: 'session' },
    { id: 'selections', src: 'selections' },
    // For the page (the outbox and drafts are per user); signing out cancels a recording.
    { id: 'recorder', systemId: 'recorder', src: 'recorder' },
  ],
  initial: 'signedOut',
  states: {
    signedOut: {
      on: { 'composer.signedIn': { target: 'active', actions: 'rememberUser' } },
    },
    active: {
      invoke: [
        {
          id: 'outbox',
          src: 'outbox',
          input: ({ context }) => ({
            userId: present(context.userId, 'userId'),
            tag: present(context.tag, 'tag'),
            device: context.device,
          }),
        },
        { id: 'drafts', src: 'drafts', input: ({ context }) => ({ userId: present(context.userId, 'userId') }) },
      ],
      on: {
        'composer.signedOut': { target: 'signedOut', actions: ['reset', 'stopRecorder'] },
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
        'recorder.recorded': [
          { guard: 'forThread', actions: 'handOver' },
          { guard: 'hasConversation', actions: ['handOver', 'announceSent'] },
        ],
        'composer.sendText': { guard: 'hasText', actions: 'handOver' },
        'composer.threadReply': { guard: 'hasReply', actions: 'handOver' },
        'composer.threadDraft': { actions: ['setThreadDraft', 'storeDrafts'] },
        'outbox.delivered': { actions: 'passDelivered' },
        'composer.secretChats': { actions: 'tellOutboxSecretChats' },
        'composer.secretDevice': { actions: ['setDevice', 'tellOutboxDevice'] },
        'composer.secretDeviceGone': { guard: 'isOurDevice', actions: ['setDevice', 'tellOutboxDevice'] },
      },
    },
  },
});

export type ComposerActorRef = import('xstate').ActorRefFrom<typeof composerMachine>;
