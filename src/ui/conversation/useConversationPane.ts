// The message pane's view of the conversation, composer, typing, read-receipt and edit actors: rows, paging, who is
// typing, the composer's state (or the edit's, while an own message is edited), and callbacks that send their events.
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo } from 'react';
import type { ConversationEntry, Message, PublicUser } from '../../contract/entities';
import { displayName, isGroupConversation, replyPreview } from '../../contract/format';
import { mayMentionEveryone } from '../../contract/message-privacy';
import { parseMarkup, toMarkup } from '../../contract/text-markup';

import { type ComposerRef, outboxOf, recorderOf } from '../../machines/composer/composer/composer.protocol';
import { itemProgress } from '../../machines/composer/index';
import {
  type ConversationRef,
  conversationPartOf,
} from '../../machines/conversation/conversation/conversation.protocol';
import type { SecretEnvelope } from '../../machines/secretChats/secretChat/secretChat.protocol';
import { useSystemActor } from '../app/RuntimeContext';
import { useLateSessionActor, useRunningActor } from '../app/useOwnedActor';
import type { ConversationViewProps } from './ConversationView';
import type { MessageAction } from './message-actions';
import { messageWords } from './tile-line';
import { useConversationSignals } from './useConversationSignals';
import { galleryOf, headerOf, type MessageRow, messageRows, typingText } from './view-model';
import { voicePreview } from './voice-call-text';

const pinsOf = conversationPartOf('pins');
const typingOf = conversationPartOf('typing');
const readReceiptsOf = conversationPartOf('readReceipts');
const messageEditOf = conversationPartOf('messageEdit');

const EMPTY: never[] = [];

/** The ids of the members whose «@name» is in the text (what the send body carries as `mentions`). */
/** The composer's markers read as formatting (docs/behaviour.md §10.42 Formatting), when the text has any. */
function formattedOf(text: string) {
  const marked = parseMarkup(text.trim());
  return marked.entities.length ? { formatted: marked } : {};
}

export function mentionedIn(text: string, members: readonly { id: string; name: string }[]): string[] {
  return members.filter((m) => text.includes(`@${m.name}`)).map((m) => m.id);
}

/** The messages without those a removal holds out of view in this conversation. */
function withoutRemoved(
  messages: Message[],
  conversationId: string,
  removals: ({ conversationId: string; messageIds: string[] } | null)[],
): Message[] {
  const ids = new Set(removals.flatMap((r) => (r && r.conversationId === conversationId ? r.messageIds : [])));
  return ids.size ? messages.filter((m) => !ids.has(m.id)) : messages;
}

/** What a quote of this message says (text, else what it carries). */
function quoteOf(row: MessageRow): string {
  if (row.text) return row.text;
  // A secret message's text is not the row's: the quote says what it is (its id travels encrypted).
  if (row.encrypted) return 'Зашифрованное сообщение';
  if (row.voice) return voicePreview(row.voice.durationMs);
  if (row.call) return row.call.label;
  const first = row.attachments[0];
  if (!first) return '';
  return first.kind === 'IMAGE' ? 'Изображение' : `Файл: ${first.name}`;
}

export function useConversationPane(options: {
  conversation: ConversationRef;
  composer: ComposerRef | undefined;
  entry: ConversationEntry | null;
  conversationId: string;
  me: string;
  now: number;
  onCall(video: boolean): void;
  /** The menu's actions that reach past this conversation (forward, select, info, delete, hide, copy). */
  onAction?(action: MessageAction, row: MessageRow): void;
  onMoreReactions?(row: MessageRow): void;
  /** «Отправить позже» with the composer's text (docs/behaviour.md §10.32); absent where it is not offered. */
  onSendLater?(text: string): void;
  /** Lines of the device's own among the messages (a secret chat's «новое устройство»). */
  lines?: { key: string; at: string; text: string }[];
}): ConversationViewProps {
  const { conversation, composer, entry, conversationId, me, now } = options;
  const all = useSelector(conversation, (s) => s.context.messages);
  // Removed or hidden a moment ago (waiting for «Отменить», or for the server's event): out of view.
  const removal = useLateSessionActor('removal');
  const held = useSelector(removal, (s) => s?.context.held ?? null);
  const gone = useSelector(removal, (s) => s?.context.gone ?? null);
  const messages = useMemo(() => withoutRemoved(all, conversationId, [held, gone]), [all, conversationId, held, gone]);
  // The pin bar is the conversation's part 'pins'.
  const pinsRef = useSelector(conversation, pinsOf);
  const pins = useSelector(pinsRef, (s) => s?.context.pins ?? EMPTY);
  const pinCursor = useSelector(pinsRef, (s) => s?.context.pinCursor ?? 0);
  const readOnly = useSelector(useSystemActor('offlineStore'), (s) => s?.hasTag('readOnly') ?? false);
  const hasMore = useSelector(conversation, (s) => s.context.hasMore);
  const firstItemIndex = useSelector(conversation, (s) => s.context.firstItemIndex);
  const status = useSelector(conversation, (s) =>
    s.hasTag('loading') ? 'loading' : s.hasTag('failed') ? 'failed' : 'ready',
  );
  const loadingOlder = useSelector(conversation, (s) => s.hasTag('loadingOlder'));
  const typingRef = useSelector(conversation, typingOf);
  const receiptsRef = useSelector(conversation, readReceiptsOf);
  const editRef = useSelector(conversation, messageEditOf);
  const editing = useSelector(editRef, (s) => s?.hasTag('editing') ?? false);
  const editText = useSelector(editRef, (s) => s?.context.text ?? '');
  const editOriginal = useSelector(editRef, (s) => s?.context.original ?? '');
  const editError = useSelector(editRef, (s) => s?.context.error ?? null);
  const unreadFrom = useSelector(conversation, (s) => s.context.unreadFrom);
  const focusedId = useSelector(conversation, (s) => s.context.focusedId);
  const typers = useSelector(typingRef, (s) => s?.context.typers ?? EMPTY);
  const dots = useSelector(typingRef, (s) => s?.context.dots ?? 1);
  const outboxRef = useSelector(composer, outboxOf);
  const outbox = useSelector(outboxRef, (s) => s?.context.items ?? EMPTY);
  const text = useSelector(composer, (s) => s?.context.text ?? '');
  const replyTo = useSelector(composer, (s) => s?.context.replyTo ?? null);
  const uploadProgress = useSelector(outboxRef, (s) => {
    const active = s?.context.items.find((i) => i.id === s.context.activeId && i.status === 'uploading');
    return active && active.conversationId === conversationId && !active.threadRootId ? itemProgress(active) : null;
  });

  // Jumps to quotes and own sends move the list, and an image opens in the lightbox: the conversation actor emits them.
  const { highlight, bottomSignal, viewer, focusMove } = useConversationSignals(conversation);

  const people = useMemo(() => {
    const map = new Map<string, PublicUser>();
    for (const p of entry?.conversation.participants ?? []) map.set(p.user.id, p.user);
    return map;
  }, [entry]);
  const isGroup = entry ? isGroupConversation(entry.conversation) : false;
  // A secret chat: the device actor (spawned once its code loads) reads its messages, edits and reactions.
  const secretDevice = useRunningActor('secretDevice');
  const secret = useSelector(secretDevice, (s) => (entry?.conversation.secret ? s?.context.texts : undefined));
  // Edits and reactions are never shown: the device reads each one to apply it to the message it names.
  useEffect(() => {
    if (!secretDevice || !secret) return;
    for (const m of messages)
      if (m.control && !secret[m.id])
        secretDevice.send({ type: 'secretDevice.need', conversationId, messageId: m.id, ciphertext: m.content });
  }, [secretDevice, secret, messages, conversationId]);
  /** A secret chat's edit or reaction: an encrypted message of its own, sent by this device. */
  const sendSecret = useCallback(
    (envelope: SecretEnvelope) =>
      secretDevice?.send({
        type: 'secretDevice.send',
        conversationId,
        item: { clientMessageId: crypto.randomUUID(), envelope },
      }),
    [secretDevice, conversationId],
  );
  // A group's owner and admins may close anyone's poll (docs/behaviour.md §10.33 Polls).
  const admin = Boolean(
    isGroup && entry?.conversation.participants.some((p) => p.user.id === me && p.role !== 'MEMBER'),
  );
  const rows = useMemo(
    () =>
      messageRows(messages, outbox, {
        me,
        conversationId,
        isGroup,
        people,
        unreadFrom,
        secret,
        lines: options.lines,
        admin,
      }),
    [messages, outbox, me, conversationId, isGroup, people, unreadFrom, secret, options.lines, admin],
  );
  const gallery = useMemo(() => galleryOf(rows), [rows]);
  const lightbox = useMemo(() => {
    const start = viewer ? gallery.start.get(viewer.messageId) : undefined;
    return viewer && start !== undefined ? { items: gallery.items, index: start + viewer.index } : null;
  }, [viewer, gallery]);

  const header = useMemo(
    () =>
      entry
        ? headerOf(entry, me, now)
        : {
            title: 'Беседа',
            avatar: { face: { kind: 'initials' as const, text: '…' }, colour: '#5a5fa8', presence: null },
            status: '',
            online: false,
          },
    [entry, me, now],
  );
  const typingNames = typers.map((id) => {
    const u = people.get(id);
    return u ? displayName(u) : 'Собеседник';
  });

  const sendComposer = composer?.send.bind(composer);
  const onVisibleUnread = useCallback(
    (messageIds: string[]) => receiptsRef?.send({ type: 'receipts.visible', messageIds }),
    [receiptsRef],
  );
  const onLoadOlder = useCallback(() => conversation.send({ type: 'conversation.loadOlder' }), [conversation]);
  const onJump = useCallback(
    (messageId: string) => conversation.send({ type: 'conversation.jumpTo', messageId }),
    [conversation],
  );
  const onOpenImage = useCallback(
    (messageId: string, index: number) => conversation.send({ type: 'conversation.openImage', messageId, index }),
    [conversation],
  );
  const onRetry = useCallback((id: string) => outboxRef?.send({ type: 'outbox.retry', id }), [outboxRef]);
  const onRemove = useCallback((id: string) => outboxRef?.send({ type: 'outbox.remove', id }), [outboxRef]);
  const onReact = useCallback(
    (messageId: string, emoji: string) => {
      // Each one toggles the sender's reaction on every device, as a click does in a plaintext chat.
      if (secret && messages.some((m) => m.id === messageId && m.type === 'ENCRYPTED'))
        sendSecret({ v: 1, kind: 'reaction', targetId: messageId, emoji });
      else conversation.send({ type: 'conversation.react', messageId, emoji });
    },
    [conversation, secret, messages, sendSecret],
  );
  const secretText = (id: string) => {
    const known = secret?.[id];
    return known?.status === 'text' ? known.text : null;
  };
  const editingId = useSelector(editRef, (s) => s?.context.messageId ?? null);
  // The formatting goes back into the composer as its markers, so it survives the edit.
  const startEdit = (row: Pick<MessageRow, 'id' | 'text' | 'entities'>) =>
    editRef?.send({
      type: 'edit.start',
      messageId: row.id,
      content: secretText(row.id) ?? toMarkup(row.text, row.entities ?? []),
    });
  /** Saving the edit of a secret message: encrypted and sent by this device, then the composer is free again. */
  const saveEdit = () => {
    const original = editingId ? secretText(editingId) : null;
    const changed = editText.trim();
    if (editingId && original !== null && changed && changed !== original.trim()) {
      sendSecret({ v: 1, kind: 'edit', targetId: editingId, text: changed });
      editRef?.send({ type: 'edit.cancel' });
    } else editRef?.send({ type: 'edit.save' });
  };

  const recorderRef = useSelector(composer, recorderOf);
  const myRole = entry?.conversation.participants.find((p) => p.user.id === me)?.role;
  // Who «@» can name: a group's other members, by their current names.
  const mentionable = useMemo(
    () =>
      (entry?.conversation.participants ?? [])
        .filter((p) => p.user.id !== me)
        .map((p) => ({ id: p.user.id, name: displayName(p.user), username: p.user.username })),
    [entry, me],
  );
  const canPin = !isGroup || myRole === 'OWNER' || myRole === 'ADMIN';
  const pinnedIds = useMemo(() => new Set(pins.map((m) => m.id)), [pins]);
  // Threads: in groups (not secret ones) whose owner or admins left them on.
  const threads = isGroup && entry?.conversation.secret !== true && entry?.conversation.threadsOff !== true;
  const menuOptions = useMemo(() => ({ canPin, pinned: pinnedIds, threads }), [canPin, pinnedIds, threads]);
  const shownPin = pins[pinCursor] ?? pins[0];
  const onAction = options.onAction;
  const act = useCallback(
    (action: MessageAction, row: MessageRow) => {
      if (action === 'pin' || action === 'unpin')
        conversation.send({ type: 'conversation.pin', messageId: row.id, on: action === 'pin' });
      else onAction?.(action, row);
    },
    [conversation, onAction],
  );

  return {
    status,
    header,
    rows,
    firstItemIndex,
    hasMore,
    loadingOlder,
    highlight,
    bottomSignal,
    focusedId,
    focusMove,
    onFocusMessage: (messageId) => conversation.send({ type: 'conversation.focusMessage', messageId }),
    onMoveFocus: (move, ids) => conversation.send({ type: 'conversation.moveFocus', move, ids }),
    typing: { text: typingText(typingNames), dots },
    lightbox,
    onCloseLightbox: () => conversation.send({ type: 'conversation.closeImage' }),
    onCall: options.onCall,
    onLoadOlder,
    onVisibleUnread,
    onReply: (row) => sendComposer?.({ type: 'composer.reply', messageId: row.id, content: quoteOf(row) }),
    onAction: act,
    onMoreReactions: options.onMoreReactions,
    menuOptions,
    mentionable: isGroup ? mentionable : [],
    // A secret group's text is not read by the server, so `@все` calls nobody there (docs/behaviour.md §10.28).
    mentionEveryone: Boolean(
      isGroup &&
        entry &&
        !entry.conversation.secret &&
        mayMentionEveryone(entry.conversation.participants.length, myRole),
    ),
    members: isGroup ? people : undefined,
    pinBar: shownPin
      ? {
          text: messageWords(shownPin, me),
          index: pins.indexOf(shownPin),
          count: pins.length,
          onJump: () => conversation.send({ type: 'conversation.pinJump' }),
          onUnpin: canPin
            ? () => conversation.send({ type: 'conversation.pin', messageId: shownPin.id, on: false })
            : undefined,
        }
      : null,
    onJump,
    onOpenImage,
    onRetry,
    onRemove,
    onReact,
    onEdit: startEdit,
    onRetryLoad: () => conversation.send({ type: 'conversation.retry' }),
    composer: {
      text: editing ? editText : text,
      reply: replyTo ? { preview: replyPreview(replyTo.content) } : null,
      uploadProgress,
      edit: editing ? { original: editOriginal, error: editError } : null,
      onCancelEdit: () => editRef?.send({ type: 'edit.cancel' }),
      onEditLast: () => {
        const last = rows.findLast((r) => r.editable);
        if (last) startEdit(last);
      },
      onText: (value) =>
        editing
          ? editRef?.send({ type: 'edit.input', text: value })
          : sendComposer?.({ type: 'composer.input', text: value }),
      onSubmit: () =>
        editing
          ? saveEdit()
          : sendComposer?.({
              type: 'composer.submit',
              at: new Date().toISOString(),
              ...(isGroup ? { mentions: mentionedIn(text, mentionable) } : {}),
              ...formattedOf(text),
            }),
      readOnly,
      onSendLater: options.onSendLater && !editing ? () => options.onSendLater?.(text) : undefined,
      onClearReply: () => sendComposer?.({ type: 'composer.clearReply' }),
      onAttach: (files, caption) =>
        sendComposer?.({
          type: 'composer.attach',
          files,
          at: new Date().toISOString(),
          ...(caption ? { caption } : {}),
        }),
      recorderRef,
    },
  };
}
