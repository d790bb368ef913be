// The message pane's view of the conversation, composer, typing and read-receipt actors: rows, paging, who is
// typing, the composer's state, and callbacks that send their events.
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ConversationEntry, PublicUser } from '../../contract/entities';
import type { ComposerActorRef } from '../../machines/composer/composer.machine';
import { itemProgress } from '../../machines/composer/outbox';
import type { ConversationActorRef } from '../../machines/conversation/conversation.machine';
import type { ReadReceiptsActorRef } from '../../machines/readReceipts/readReceipts.machine';
import type { TypingActorRef } from '../../machines/typing/typing.machine';
import { displayName, isGroupConversation, replyPreview } from './format';
import type { ConversationViewProps } from './ConversationView';
import { galleryOf, headerOf, type MessageRow, messageRows, typingText } from './view-model';

const EMPTY: never[] = [];

/** What a quote of this message says (text, else what it carries). */
function quoteOf(row: MessageRow): string {
  if (row.text) return row.text;
  const first = row.attachments[0];
  if (!first) return '';
  return first.kind === 'IMAGE' ? 'Изображение' : `Файл: ${first.name}`;
}

export function useConversationPane(options: {
  conversation: ConversationActorRef;
  composer: ComposerActorRef | undefined;
  entry: ConversationEntry | null;
  conversationId: string;
  me: string;
  now: number;
  onCall(video: boolean): void;
}): ConversationViewProps {
  const { conversation, composer, entry, conversationId, me, now } = options;
  const messages = useSelector(conversation, (s) => s.context.messages);
  const hasMore = useSelector(conversation, (s) => s.context.hasMore);
  const firstItemIndex = useSelector(conversation, (s) => s.context.firstItemIndex);
  const status = useSelector(conversation, (s) => (s.hasTag('loading') ? 'loading' : s.hasTag('failed') ? 'failed' : 'ready'));
  const loadingOlder = useSelector(conversation, (s) => s.hasTag('loadingOlder'));
  const typingRef = useSelector(conversation, (s) => s.children.typing as TypingActorRef | undefined);
  const receiptsRef = useSelector(conversation, (s) => s.children.readReceipts as ReadReceiptsActorRef | undefined);
  const typers = useSelector(typingRef, (s) => s?.context.typers ?? EMPTY);
  const dots = useSelector(typingRef, (s) => s?.context.dots ?? 1);
  const outbox = useSelector(composer, (s) => s?.context.outbox ?? EMPTY);
  const text = useSelector(composer, (s) => s?.context.text ?? '');
  const replyTo = useSelector(composer, (s) => s?.context.replyTo ?? null);
  const uploadProgress = useSelector(composer, (s) => {
    const active = s?.context.outbox.find((i) => i.id === s.context.activeId && i.status === 'uploading');
    return active && active.conversationId === conversationId ? itemProgress(active) : null;
  });

  // Jumps to quotes and own sends move the list; both arrive as emitted events.
  const [highlight, setHighlight] = useState<{ id: string; n: number } | null>(null);
  useEffect(() => {
    const sub = conversation.on('conversation.scrollTo', (e) => setHighlight((h) => ({ id: e.messageId, n: (h?.n ?? 0) + 1 })));
    return () => sub.unsubscribe();
  }, [conversation]);
  const [bottomSignal, setBottomSignal] = useState(0);
  useEffect(() => {
    if (!composer) return;
    const sub = composer.on('composer.sent', (e) => {
      if (e.conversationId === conversationId) setBottomSignal((n) => n + 1);
    });
    return () => sub.unsubscribe();
  }, [composer, conversationId]);

  const people = useMemo(() => {
    const map = new Map<string, PublicUser>();
    for (const p of entry?.conversation.participants ?? []) map.set(p.user.id, p.user);
    return map;
  }, [entry]);
  const isGroup = entry ? isGroupConversation(entry.conversation) : false;
  const rows = useMemo(
    () => messageRows(messages, outbox, { me, conversationId, isGroup, people }),
    [messages, outbox, me, conversationId, isGroup, people],
  );
  const gallery = useMemo(() => galleryOf(rows), [rows]);
  const [lightbox, setLightbox] = useState<ConversationViewProps['lightbox']>(null);

  const header = useMemo(
    () =>
      entry
        ? headerOf(entry, me, now)
        : { title: 'Беседа', avatar: { face: { kind: 'initials' as const, text: '…' }, colour: '#5a5fa8', presence: null }, status: '', online: false },
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
  const onJump = useCallback((messageId: string) => conversation.send({ type: 'conversation.jumpTo', messageId }), [conversation]);
  const onOpenImage = useCallback(
    (messageId: string, index: number) => {
      const start = gallery.start.get(messageId);
      if (start !== undefined) setLightbox({ items: gallery.items, index: start + index });
    },
    [gallery],
  );
  const onRetry = useCallback((id: string) => sendComposer?.({ type: 'composer.retry', id }), [sendComposer]);
  const onRemove = useCallback((id: string) => sendComposer?.({ type: 'composer.remove', id }), [sendComposer]);

  return {
    status,
    header,
    rows,
    firstItemIndex,
    hasMore,
    loadingOlder,
    highlight,
    bottomSignal,
    typing: { text: typingText(typingNames), dots },
    lightbox,
    onCloseLightbox: () => setLightbox(null),
    onCall: options.onCall,
    onLoadOlder,
    onVisibleUnread,
    onReply: (row) => sendComposer?.({ type: 'composer.reply', messageId: row.id, content: quoteOf(row) }),
    onDelete: (messageId) => conversation.send({ type: 'conversation.delete', messageId }),
    onJump,
    onOpenImage,
    onRetry,
    onRemove,
    onRetryLoad: () => conversation.send({ type: 'conversation.retry' }),
    composer: {
      text,
      reply: replyTo ? { preview: replyPreview(replyTo.content) } : null,
      uploadProgress,
      onText: (value) => sendComposer?.({ type: 'composer.input', text: value }),
      onSubmit: () => sendComposer?.({ type: 'composer.submit', at: new Date().toISOString() }),
      onClearReply: () => sendComposer?.({ type: 'composer.clearReply' }),
      onAttach: (files) => sendComposer?.({ type: 'composer.attach', files, at: new Date().toISOString() }),
    },
  };
}
