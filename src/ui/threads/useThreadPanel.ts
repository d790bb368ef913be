// The thread panel: its actor (alive while the panel is open) as plain values and callbacks — the root, the replies
// with their senders' names, pictures and files, the own replies still in the composer's outbox (sending, their
// upload's progress, or failed with «Повторить» and «Удалить»), whether there are older ones, following, and the
// error to show — and the main composer's view configured for the thread (text, quote, files through the send
// preview, pasting, emoji; the text and quote kept with the composer's drafts). Pictures open in the lightbox. Escape closes the panel.
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Message, PublicUser, TextEntity } from '../../contract/entities';
import { displayName, repliesText } from '../../contract/format';
import { outboxOf, recorderOf, threadDraftKey } from '../../machines/composer/composer/composer.protocol';
import { itemProgress, type OutboxItem } from '../../machines/composer/index';
import { THREAD_TAGS, type ThreadFile } from '../../machines/threads/threadPanel/threadPanel.protocol';
import { useSystemActor } from '../app/RuntimeContext';
import { editedTitle, mentionViews } from '../conversation/deferred';
import { useOwnedActor } from '../app/useOwnedActor';
import { type ComposerProps, useMentionPicker, useRecorderPanel, useSendPreview } from '../composer/index';

export interface ThreadMessageView {
  id: string;
  sender: { id: string; displayName: string; avatarUrl: string | null };
  own: boolean;
  text: string;
  /** Its formatting and the names it mentions, as the timeline renders them. */
  entities?: TextEntity[];
  mentions?: { name: string; me: boolean }[];
  time: string;
  /** «изменено: …» when it was edited (the mark opens «История изменений»). */
  edited?: string | null;
  /** Its pictures and files, as the timeline shows them. */
  attachments: { url: string; kind: 'IMAGE' | 'FILE' | 'AUDIO'; name: string }[];
  /** The reply it quotes («Ответ на:»). */
  reply: { id: string; preview: string } | null;
  /** A voice message: its recording (null while it uploads), length and waveform. */
  voice?: { url: string | null; durationMs: number; waveform: number[] } | null;
  /** An own reply the server does not have yet (it waits in the outbox). */
  pending?: { outboxId: string; failed: boolean; error: string | null; progress: number | null };
}

const NO_ITEMS: OutboxItem[] = [];
const timeOf = (iso: string) => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '' : at.toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' });
};

/** A message in one line (a quote's preview): its text, else what it carries. */
function textOf(m: Message): string {
  if (m.content) return m.content;
  if (m.type === 'VOICE') return 'Голосовое сообщение';
  const first = m.attachments[0];
  if (!first) return '';
  return first.type === 'IMAGE' ? 'Изображение' : `Файл: ${first.name ?? 'файл'}`;
}

const nameOf = (a: Message['attachments'][number]) => a.name ?? a.url.split('/').pop() ?? 'файл';

export function useThreadPanel(options: {
  conversationId: string;
  rootId: string;
  me: string;
  people: ReadonlyMap<string, PublicUser>;
  onClose(): void;
  /** The reply a search result opened the thread at: highlighted once it is shown. */
  found?: string | null;
}) {
  const { conversationId, rootId, me, people, onClose } = options;
  const composer = useSystemActor('composer');
  // The draft kept from an earlier visit (read once, at spawn: the panel keeps it up to date from then on).
  const kept = composer?.getSnapshot().context.drafts[threadDraftKey(rootId)];
  const draftInput = kept ? { text: kept.text, quote: kept.replyTo?.id ?? null } : undefined;
  const actor = useOwnedActor('threadPanel', { conversationId, rootId, draft: draftInput });
  const outboxRef = useSelector(composer, outboxOf);
  const items = useSelector(outboxRef, (s) => s?.context.items ?? NO_ITEMS);
  const recorderRef = useSelector(composer, recorderOf);
  const target = useMemo(() => ({ conversationId, rootId }), [conversationId, rootId]);
  const recorder = useRecorderPanel(recorderRef, target);
  const preview = useSendPreview('threadSendPreview');
  const loading = useSelector(actor, (s) => s?.hasTag(THREAD_TAGS.loading) ?? true);
  const failed = useSelector(actor, (s) => s?.hasTag(THREAD_TAGS.failed) ?? false);
  const loadingMore = useSelector(actor, (s) => s?.hasTag(THREAD_TAGS.loadingMore) ?? false);
  const busy = useSelector(actor, (s) => s?.hasTag(THREAD_TAGS.busy) ?? false);
  const root = useSelector(actor, (s) => s?.context.root ?? null);
  const replies = useSelector(actor, (s) => s?.context.replies);
  const hasMore = useSelector(actor, (s) => s?.context.hasMore ?? false);
  const following = useSelector(actor, (s) => s?.context.following ?? false);
  const draft = useSelector(actor, (s) => s?.context.draft ?? '');
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const quote = useSelector(actor, (s) => s?.context.quote ?? null);
  /** The picture open in the lightbox, by its place among the thread's pictures. */
  const [viewing, setViewing] = useState<number | null>(null);

  useEffect(() => {
    const sub = actor.on('thread.closed', () => onClose());
    return () => sub.unsubscribe();
  }, [actor, onClose]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const senderOf = useCallback(
    (id: string) => {
      const u = people.get(id);
      return { id, displayName: u ? displayName(u) : 'Участник', avatarUrl: u?.avatarUrl ?? null };
    },
    [people],
  );
  const view = useCallback(
    (m: Message): ThreadMessageView => ({
      id: m.id,
      sender: senderOf(m.senderId),
      own: m.senderId === me,
      // A picture or file shows as itself, a voice message as its player.
      text: m.content,
      ...(m.entities?.length ? { entities: m.entities } : {}),
      ...(m.mentions?.length ? { mentions: mentionViews(m, me, (id) => senderOf(id).displayName) } : {}),
      time: timeOf(m.createdAt),
      edited: m.editedAt ? editedTitle(new Date(m.editedAt)) : null,
      attachments: m.attachments
        .filter((a) => a.type !== 'AUDIO')
        .map((a) => ({ url: a.url, kind: a.type, name: nameOf(a) })),
      reply: m.replyTo ? { id: m.replyTo.id, preview: m.replyTo.content || 'Вложение' } : null,
      voice: m.voice ? { url: m.attachments[0]?.url ?? null, ...m.voice } : null,
    }),
    [senderOf, me],
  );
  const rows = useMemo(() => {
    const shown = (replies ?? []).map(view);
    // Own replies of this thread the server does not have yet, after the others (as in the timeline).
    const delivered = new Set((replies ?? []).map((m) => m.clientMessageId).filter(Boolean));
    for (const item of items) {
      if (item.threadRootId !== rootId || delivered.has(item.clientMessageId)) continue;
      shown.push({
        id: item.id,
        sender: senderOf(me),
        own: true,
        text: item.content,
        time: timeOf(item.createdAt),
        attachments:
          item.kind === 'voice'
            ? []
            : item.files.flatMap((f) =>
                f.attachment ? [{ url: f.attachment.url, kind: f.attachment.type, name: f.name }] : [],
              ),
        voice: item.voice ? { url: item.files[0]?.attachment?.url ?? null, ...item.voice } : null,
        reply: item.replyTo ? { id: item.replyTo.id, preview: item.replyTo.content || 'Вложение' } : null,
        pending: {
          outboxId: item.id,
          failed: item.status === 'failed',
          error: item.error,
          progress: item.status === 'uploading' ? itemProgress(item) : null,
        },
      });
    }
    return shown;
  }, [replies, items, rootId, view, senderOf, me]);
  const gallery = useMemo(() => {
    const all = root ? [view(root), ...rows] : rows;
    return all.flatMap((m) =>
      m.attachments.filter((a) => a.kind === 'IMAGE').map((a) => ({ url: a.url, name: a.name })),
    );
  }, [root, rows, view]);
  const quoted = quote ? (replies ?? []).find((m) => m.id === quote) : undefined;
  // Who «@» can name: the group's other members, by their current names (as in the main composer).
  const mentionable = useMemo(
    () =>
      [...people.values()]
        .filter((u) => u.id !== me)
        .map((u) => ({ id: u.id, name: displayName(u), username: u.username })),
    [people, me],
  );
  const mentions = useMentionPicker({
    id: 'threadMentionPicker',
    members: mentionable,
    text: draft,
    onText: (text: string) => actor.send({ type: 'thread.input', text }),
  });
  // «@Имя» in the text names that member.
  const mentionsOf = useCallback(
    (text: string) => mentionable.filter((u) => text.includes(`@${u.name}`)).map((u) => u.id),
    [mentionable],
  );
  const uploadProgress = useMemo(() => {
    const uploading = items.find((i) => i.threadRootId === rootId && i.status === 'uploading');
    return uploading ? itemProgress(uploading) : null;
  }, [items, rootId]);
  /** Files go straight to the thread with the send preview's caption. */
  const sendFiles = useCallback(
    (files: ThreadFile[], caption?: string) =>
      actor.send({
        type: 'thread.attach',
        files,
        at: new Date().toISOString(),
        ...(caption ? { caption, mentions: mentionsOf(caption) } : {}),
      }),
    [actor, mentionsOf],
  );

  const composerProps: ComposerProps = {
    text: draft,
    mentions: mentionable.length ? mentions : null,
    reply: quoted ? { preview: textOf(quoted) } : null,
    uploadProgress,
    recorder,
    onText: (text: string) => actor.send({ type: 'thread.input', text }),
    onSubmit: () => actor.send({ type: 'thread.send', at: new Date().toISOString(), mentions: mentionsOf(draft) }),
    onClearReply: () => actor.send({ type: 'thread.quote', messageId: null }),
    // Picked and pasted files wait in the send preview for a caption, as in the timeline.
    onAttach: (files, caption) => (caption === undefined ? preview.add(files) : sendFiles(files, caption)),
  };

  return {
    status: failed ? ('failed' as const) : loading ? ('loading' as const) : ('ready' as const),
    root: root ? view(root) : null,
    count: repliesText(root?.thread?.replyCount ?? (replies ?? []).length),
    rows,
    found: options.found ?? null,
    hasMore,
    loadingMore,
    busy,
    following,
    error,
    composer: composerProps,
    preview,
    onSendPreview: () => {
      sendFiles(preview.files, preview.caption);
      preview.sent();
    },
    /** The lightbox over the thread's pictures, open at one of them; null while closed. */
    lightbox:
      viewing !== null && gallery.length ? { items: gallery, index: Math.min(viewing, gallery.length - 1) } : null,
    onOpenImage: (url: string) =>
      setViewing(
        Math.max(
          0,
          gallery.findIndex((g) => g.url === url),
        ),
      ),
    onCloseLightbox: () => setViewing(null),
    onRetryReply: (outboxId: string) => outboxRef?.send({ type: 'outbox.retry', id: outboxId }),
    onRemoveReply: (outboxId: string) => outboxRef?.send({ type: 'outbox.remove', id: outboxId }),
    onMore: () => actor.send({ type: 'thread.more' }),
    onQuote: (messageId: string | null) => actor.send({ type: 'thread.quote', messageId }),
    onFollow: () => actor.send({ type: 'thread.follow', follow: !following }),
    onRetry: () => actor.send({ type: 'thread.retry' }),
    onClose: () => actor.send({ type: 'thread.close' }),
  };
}

export type ThreadPanelProps = ReturnType<typeof useThreadPanel>;
